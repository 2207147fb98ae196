import { Crypto, Managers } from '@arkecosystem/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Slots } from './slots.js';
import { TEST_MILESTONE_ENTRIES, testMilestones } from './test-milestones.js';

// Block timestamps of a chain that missed a few slots: what storage would answer.
const timestampOf = (height: number) =>
  (height - 1) * 8 + (height > 3 ? 8 : 0) + (height > 12 ? 4 : 0);

describe('Slots against ARK 3.0 (oracle)', () => {
  const slots = new Slots({ milestones: testMilestones() });

  beforeAll(() => {
    Managers.configManager.setFromPreset('devnet');
    Managers.configManager.setConfig({
      ...Managers.configManager.all(),
      milestones: TEST_MILESTONE_ENTRIES as never,
    } as never);
  });

  it('gives the slot info, slot time and forging status ARK gives, across blocktime changes', () => {
    // The oracle really runs on the test milestones: blocktime 8, then 4 at 11, then 6 at 35.
    expect(Crypto.Slots.getMilestonesWhichAffectBlockTimes().map((m) => m.data)).toEqual([8, 4, 6]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 60 }),
        (timestamp, height) => {
          const ark = Crypto.Slots.getSlotInfo(timestampOf, timestamp, height);
          const ours = slots.getSlotInfo(timestampOf, timestamp, height);
          expect(ours).toEqual({ ...ark });
          expect(slots.getSlotTime(timestampOf, ours.slotNumber, height)).toBe(
            Crypto.Slots.getSlotTime(timestampOf, ours.slotNumber, height),
          );
          expect(slots.isForgingAllowed(timestampOf, timestamp, height)).toBe(
            Crypto.Slots.isForgingAllowed(timestampOf, timestamp, height),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('measures epoch time from the first milestone epoch', () => {
    const unixMs = Date.parse('2017-03-21T13:01:40.500Z');
    expect(slots.getTime(unixMs)).toBe(100);
    expect(slots.getTime(unixMs)).toBe(Crypto.Slots.getTime(unixMs));
  });
});
