import { milestoneChanges, type MilestoneChange } from './milestone-changes.js';
import type { Milestones } from './milestones.js';

/** The timestamp (seconds since the epoch) of the block at a height, from storage or state. */
export type BlockTimestampLookup = (height: number) => number;

/** One slot as ARK 3.0's `Slots.getSlotInfo` gives it, for a timestamp inside it. */
export interface SlotInfo {
  readonly slotNumber: number;
  readonly startTime: number;
  readonly endTime: number;
  readonly blockTime: number;
  /** Whether the timestamp is inside the slot's forging window (ARK's forgingStatus). */
  readonly forgingStatus: boolean;
}

/**
 * When the block of a slot may be forged: from the slot's start until half a block time has
 * passed (ARK 3.x's forgingStatus), so that it reaches the network before the next slot.
 */
export interface ForgingWindow {
  readonly slot: number;
  /** Epoch seconds at which the slot begins: the timestamp its block carries. */
  readonly start: number;
  /** Epoch seconds from which it is too late to forge the slot's block. */
  readonly closes: number;
}

/** Whether `timestamp` (epoch seconds) lies inside the window. */
export const isForgingOpen = (window: ForgingWindow, timestamp: number): boolean =>
  timestamp >= window.start && timestamp < window.closes;

/**
 * The network's clock: epoch time, slots and their forging windows, from the epoch and the
 * blocktime milestones, as ARK 3.0 computes them: each span of a blocktime ends one blocktime
 * after its last block, and the slots of the next span count on from there. Times are seconds
 * since the epoch. Slot arithmetic needs the timestamps of the blocks that end blocktime spans
 * (`lookup`); epoch time and a slot's end do not, so a forger without a ledger uses them too.
 */
export class SlotClock {
  readonly #epochMs: number;
  readonly #milestones: Milestones;
  readonly #blockTimes: readonly MilestoneChange<number>[];

  constructor(milestones: Milestones) {
    this.#epochMs = Date.parse(milestones.at(1).epoch);
    this.#milestones = milestones;
    this.#blockTimes = milestoneChanges(milestones, 'blocktime');
  }

  /** Seconds since the network epoch of a Unix time in milliseconds (now by default). */
  epochTime(unixMs: number = Date.now()): number {
    return Math.floor((unixMs - this.#epochMs) / 1000);
  }

  /** Unix milliseconds of an epoch timestamp in seconds. */
  unixMs(epochSeconds: number): number {
    return this.#epochMs + epochSeconds * 1000;
  }

  /** The slot `timestamp` falls in, for a block at `height`, as ARK's getSlotInfo. */
  slotInfo(lookup: BlockTimestampLookup, timestamp: number, height: number): SlotInfo {
    const span = this.#span(lookup, height);
    const slot = span.slotsBefore + Math.floor((timestamp - span.spanEnd) / span.blockTime);
    const window = windowOf(span, slot);
    return {
      slotNumber: slot,
      startTime: window.start,
      endTime: window.start + span.blockTime - 1,
      blockTime: span.blockTime,
      forgingStatus: isForgingOpen(window, timestamp),
    };
  }

  slotOf(lookup: BlockTimestampLookup, timestamp: number, height: number): number {
    return this.slotInfo(lookup, timestamp, height).slotNumber;
  }

  /** The start (epoch seconds) of a slot, under the blocktimes in force up to `height`. */
  slotTime(lookup: BlockTimestampLookup, slot: number, height: number): number {
    return this.forgingWindow(lookup, slot, height).start;
  }

  /** The forging window of a slot, under the blocktimes in force up to `height`. */
  forgingWindow(lookup: BlockTimestampLookup, slot: number, height: number): ForgingWindow {
    return windowOf(this.#span(lookup, height), slot);
  }

  /**
   * Epoch seconds at which the slot that began at `start` ends, under the blocktime at `height`:
   * how ARK's forger reckons its next look from the relay's round, without block timestamps.
   */
  slotEnd(start: number, height: number): number {
    return start + this.#milestones.at(height).blocktime;
  }

  /** The blocktime at `height`, where its span's slots begin, and how many slots came before. */
  #span(lookup: BlockTimestampLookup, height: number): Span {
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

interface Span {
  readonly blockTime: number;
  readonly slotsBefore: number;
  readonly spanEnd: number;
}

function windowOf({ blockTime, slotsBefore, spanEnd }: Span, slot: number): ForgingWindow {
  const start = spanEnd + (slot - slotsBefore) * blockTime;
  return { slot, start, closes: start + Math.floor(blockTime / 2) };
}
