import type { Milestones } from '@lni/crypto';
import { milestoneChanges, type MilestoneChange } from './milestone-changes.js';

/** The timestamp (seconds since the epoch) of the block at a height, from storage or state. */
export type BlockTimestampLookup = (height: number) => number;

/** One slot: its number, bounds (epoch seconds) and whether a block may still be forged in it. */
export interface SlotInfo {
  readonly slotNumber: number;
  readonly startTime: number;
  readonly endTime: number;
  readonly blockTime: number;
  /** True in the first half of the slot, when ARK 3.0 lets a forger produce. */
  readonly forgingStatus: boolean;
}

/**
 * Slots from the network epoch and the blocktime milestones, as ARK 3.0 computes them: each
 * span of a blocktime ends one blocktime after its last block, and the slots of the next
 * span count on from there. Times are seconds since the epoch.
 */
export class Slots {
  readonly #epochMs: number;
  readonly #blockTimes: readonly MilestoneChange<number>[];

  constructor({ milestones }: { milestones: Milestones }) {
    this.#epochMs = Date.parse(milestones.at(1).epoch);
    this.#blockTimes = milestoneChanges(milestones, 'blocktime');
  }

  /** Seconds since the network epoch of a Unix time in milliseconds (now by default). */
  getTime(unixMs: number = Date.now()): number {
    return Math.floor((unixMs - this.#epochMs) / 1000);
  }

  /** Unix milliseconds of an epoch timestamp in seconds. */
  toUnixMs(epochSeconds: number): number {
    return this.#epochMs + epochSeconds * 1000;
  }

  getSlotInfo(lookup: BlockTimestampLookup, timestamp: number, height: number): SlotInfo {
    const span = this.#span(lookup, height);
    const { blockTime, spanEnd, slotsBefore } = span;
    const slotsInSpan = Math.floor((timestamp - spanEnd) / blockTime);
    const startTime = spanEnd + slotsInSpan * blockTime;
    return {
      slotNumber: slotsBefore + slotsInSpan,
      startTime,
      endTime: startTime + blockTime - 1,
      blockTime,
      forgingStatus: timestamp < startTime + Math.floor(blockTime / 2),
    };
  }

  getSlotNumber(lookup: BlockTimestampLookup, timestamp: number, height: number): number {
    return this.getSlotInfo(lookup, timestamp, height).slotNumber;
  }

  /** The start (epoch seconds) of a slot, under the blocktimes in force up to `height`. */
  getSlotTime(lookup: BlockTimestampLookup, slot: number, height: number): number {
    const { blockTime, spanEnd, slotsBefore } = this.#span(lookup, height);
    return spanEnd + (slot - slotsBefore) * blockTime;
  }

  isForgingAllowed(lookup: BlockTimestampLookup, timestamp: number, height: number): boolean {
    return this.getSlotInfo(lookup, timestamp, height).forgingStatus;
  }

  /** The blocktime at `height`, where its span's slots begin, and how many slots came before. */
  #span(lookup: BlockTimestampLookup, height: number) {
    let blockTime = this.#blockTimes[0]?.value as number;
    let slotsBefore = 0;
    let spanEnd = 0;
    let spanStartHeight = 1;
    for (const change of this.#blockTimes.slice(1)) {
      if (height < change.height) break;
      const spanStart = lookup(spanStartHeight);
      spanEnd = lookup(change.height - 1) + blockTime;
      slotsBefore += Math.floor((spanEnd - spanStart) / blockTime);
      blockTime = change.value;
      spanStartHeight = change.height;
    }
    return { blockTime, slotsBefore, spanEnd };
  }
}
