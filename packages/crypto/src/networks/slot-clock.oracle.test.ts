import { Crypto } from '@arkecosystem/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestMilestonesInArk } from './__fixtures__/ark-test-milestones.js';
import { testMilestones, testTimestampOf as timestampOf } from './__fixtures__/test-milestones.js';
import { isForgingOpen, SlotClock } from './slot-clock.js';

describe('the slot clock against ARK 3.0 (oracle)', () => {
  const clock = new SlotClock(testMilestones());

  beforeAll(useTestMilestonesInArk);

  it('gives the slot info, slot time and forging status ARK gives, across blocktime changes', () => {
    // The oracle really runs on the test milestones: blocktime 8, then 4 at 11, then 6 at 35.
    expect(Crypto.Slots.getMilestonesWhichAffectBlockTimes().map((m) => m.data)).toEqual([8, 4, 6]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 60 }),
        (timestamp, height) => {
          const ark = Crypto.Slots.getSlotInfo(timestampOf, timestamp, height);
          const ours = clock.slotInfo(timestampOf, timestamp, height);
          expect(ours).toEqual({ ...ark });
          expect(clock.slotTime(timestampOf, ours.slotNumber, height)).toBe(
            Crypto.Slots.getSlotTime(timestampOf, ours.slotNumber, height),
          );
          const window = clock.forgingWindow(timestampOf, ours.slotNumber, height);
          expect(isForgingOpen(window, timestamp)).toBe(
            Crypto.Slots.isForgingAllowed(timestampOf, timestamp, height),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('measures epoch time from the first milestone epoch', () => {
    const unixMs = Date.parse('2017-03-21T13:01:40.500Z');
    expect(clock.epochTime(unixMs)).toBe(100);
    expect(clock.epochTime(unixMs)).toBe(Crypto.Slots.getTime(unixMs));
  });
});
