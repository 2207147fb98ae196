import { isForgingOpen, type BlockHeader, type ForgingWindow } from '@lni/crypto';
import type { RoundKeeper } from './round-keeper.js';

/** The block the answers are given on: our last one. */
type Tip = Pick<BlockHeader, 'height' | 'timestamp'>;
type Schedule = Pick<RoundKeeper, 'forgingWindowAt'>;

/**
 * getStatus's forging fields, as ARK 3.9.1's PeerController.getStatus gives them
 * (Slots.getSlotInfo of now): the slot of `now` (epoch seconds) and whether its forging window
 * is open, reckoned at the last block's height (ARK's configured height), not the next one's.
 */
export function statusForging(
  schedule: Schedule,
  last: Tip,
  now: number,
): { readonly forgingAllowed: boolean; readonly currentSlot: number } {
  const window = schedule.forgingWindowAt(now, last.height);
  return { forgingAllowed: isForgingOpen(window, now), currentSlot: window.slot };
}

/**
 * getCurrentRound's slot, as ARK 3.9.1's InternalController.getCurrentRound gives it
 * (calculateForgingInfo): the forging window of `now` at the next block's height, whose start is
 * the next block's timestamp. ARK's canForge is the open window alone; ours also needs the slot
 * to have no block yet, so a forger never makes a second block for a slot (an ARK forger told
 * false asks again 200 ms later, as it does outside the window).
 */
export function roundForging(
  schedule: Schedule,
  last: Tip,
  now: number,
): { readonly window: ForgingWindow; readonly canForge: boolean } {
  const window = schedule.forgingWindowAt(now, last.height + 1);
  return { window, canForge: isForgingOpen(window, now) && last.timestamp < window.start };
}
