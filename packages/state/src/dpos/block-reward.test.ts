import { Milestones } from '@lni/crypto';
import { describe, expect, it } from 'vitest';
// The round and slot tests' milestones (their home is @lni/crypto, beside the slot clock).
import { TEST_MILESTONE_ENTRIES } from '../../../crypto/src/networks/__fixtures__/test-milestones.js';
import { blockReward } from './block-reward.js';

describe('blockReward', () => {
  const milestones = new Milestones(TEST_MILESTONE_ENTRIES);

  it('reads the block reward from the milestone in force', () => {
    expect(blockReward(milestones, 10)).toBe(0n);
    expect(blockReward(milestones, 11)).toBe(200_000_000n);
  });
});
