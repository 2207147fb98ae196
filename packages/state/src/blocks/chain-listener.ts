import type { Logger } from '@lni/kernel';
import type { FullBlock } from './block-store.js';

/**
 * Told of every change to the chain by the block processor, in the order they happen, after
 * the change is stored and its events are out, and before the processor takes its next call:
 * a listener never sees state ahead of or behind what it was told. The transaction pool is one.
 */
export interface ChainListener {
  /** A block was applied and stored. */
  blockApplied(block: FullBlock): void;
  /**
   * Blocks were reverted, `blocks` oldest first (the order they had been applied in); state
   * is back below the oldest. The processor waits for the returned promise.
   */
  blocksReverted(blocks: readonly FullBlock[]): Promise<void>;
}

/** Tells each listener of an applied block; a failure is logged, the stored block stands. */
export function tellApplied(
  listeners: readonly ChainListener[],
  block: FullBlock,
  logger: Logger,
): void {
  for (const listener of listeners) {
    try {
      listener.blockApplied(block);
    } catch (error) {
      listenerFailed(logger, error, [block]);
    }
  }
}

/** Tells each listener of a revert, in turn; a failure is logged, the revert stands. */
export async function tellReverted(
  listeners: readonly ChainListener[],
  oldestFirst: readonly FullBlock[],
  logger: Logger,
): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener.blocksReverted(oldestFirst);
    } catch (error) {
      listenerFailed(logger, error, oldestFirst);
    }
  }
}

function listenerFailed(logger: Logger, error: unknown, blocks: readonly FullBlock[]): void {
  logger.error(
    { err: error, heights: blocks.map((block) => block.height) },
    'Chain listener failed to follow the chain',
  );
}
