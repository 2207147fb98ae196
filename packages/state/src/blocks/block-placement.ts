import { BlockRejectedError } from './block-rejected-error.js';
import type { FullBlock } from './block-store.js';
import type { ForgingSchedule } from './forging-schedule.js';

export interface PlacementDeps {
  readonly forgingSchedule: ForgingSchedule;
  /** Seconds since the network epoch now; blocks of later slots are refused. */
  readonly clock?: () => number;
}

/**
 * Whether `block` may follow `last` (undefined before the genesis block): the next height on
 * the tip, a later slot than the tip's and not a future one, forged by that slot's delegate.
 * Throws BlockRejectedError naming the first rule broken.
 */
export function checkPlacement(
  block: FullBlock,
  last: FullBlock | undefined,
  deps: PlacementDeps,
): void {
  checkChained(block, last);
  // Chained on a tip, the block is not the genesis block.
  if (last !== undefined) checkSlotAndGenerator(block, last, deps);
}

function checkChained(block: FullBlock, last: FullBlock | undefined): void {
  const expectedHeight = last ? last.height + 1 : 1;
  if (block.height !== expectedHeight) {
    throw new BlockRejectedError(
      'height',
      `height: expected ${expectedHeight}, got ${block.height}`,
      block,
    );
  }
  if (last && block.previousBlock !== last.id) {
    throw new BlockRejectedError(
      'previousBlock',
      `previousBlock: expected ${last.id}, got ${String(block.previousBlock)}`,
      block,
    );
  }
}

function checkSlotAndGenerator(
  block: FullBlock,
  last: FullBlock,
  { forgingSchedule: schedule, clock }: PlacementDeps,
): void {
  const slot = schedule.slotOf(block.timestamp, block.height);
  const lastSlot = schedule.slotOf(last.timestamp, last.height);
  if (slot <= lastSlot) {
    throw new BlockRejectedError(
      'slot',
      `timestamp: slot ${slot} is not after the last block's slot ${lastSlot}`,
      block,
    );
  }
  if (clock) {
    const now = schedule.slotOf(clock(), block.height);
    if (slot > now) {
      throw new BlockRejectedError(
        'slot',
        `timestamp: slot ${slot} is in the future (now ${now})`,
        block,
      );
    }
  }
  const forger = schedule.forgerAt(block.height, block.timestamp);
  if (forger !== block.generatorPublicKey) {
    throw new BlockRejectedError(
      'generator',
      `generatorPublicKey: slot ${slot} belongs to ${forger}, not ${block.generatorPublicKey}`,
      block,
      undefined,
      // The slot's delegate is known to every node following the chain: only a forger lies.
      { misbehaviour: true },
    );
  }
}
