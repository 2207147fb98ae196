import type { MilestoneEntry } from '../milestone.js';
import { Milestones } from '../milestones.js';

/** Milestones for tests: 5 delegates of 8 s blocks, then 4 s blocks at 11, 7 delegates at 21. */
export const TEST_MILESTONE_ENTRIES: readonly MilestoneEntry[] = [
  {
    height: 1,
    activeDelegates: 5,
    blocktime: 8,
    reward: 0,
    epoch: '2017-03-21T13:00:00.000Z',
    block: { version: 0, maxTransactions: 150, maxPayload: 2_097_152 },
    fees: { staticFees: { transfer: 10_000_000 } },
    vendorFieldLength: 255,
  },
  { height: 11, blocktime: 4, reward: 200_000_000 },
  { height: 21, activeDelegates: 7 },
  { height: 35, blocktime: 6 },
];

export const testMilestones = (): Milestones => new Milestones(TEST_MILESTONE_ENTRIES);

/** Block timestamps of a chain on these milestones that missed a few slots. */
export const testTimestampOf = (height: number): number =>
  (height - 1) * 8 + (height > 3 ? 8 : 0) + (height > 12 ? 4 : 0);
