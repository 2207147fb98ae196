import { Milestones } from '../../networks/milestones.js';
import type { MilestoneEntry } from '../../networks/milestone.js';

/** The height from which the test networks use full sha256 block ids. */
export const FULL_ID_HEIGHT = 1_000_000;

/** ARK 3.0 testnet's milestones, with the full-id switch moved low enough for tests to reach. */
export const testMilestoneEntries: MilestoneEntry[] = [
  {
    height: 1,
    reward: 0,
    activeDelegates: 51,
    blocktime: 8,
    block: { version: 0, maxTransactions: 150, maxPayload: 2_097_152 },
    epoch: '2017-03-21T13:00:00.000Z',
    fees: {
      staticFees: { transfer: 10_000_000, delegateRegistration: 2_500_000_000, vote: 100_000_000 },
    },
    vendorFieldLength: 64,
    multiPaymentLimit: 256,
  },
  { height: 2, aip11: true, htlcEnabled: true },
  { height: 75_600, reward: 200_000_000 },
  { height: FULL_ID_HEIGHT, block: { idFullSha256: true } },
];

export const testMilestones = new Milestones(testMilestoneEntries);
