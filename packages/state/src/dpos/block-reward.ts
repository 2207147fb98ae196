import type { Milestones } from '@lni/crypto';

/** The reward (arktoshi) of the block at a height, from the milestone in force there. */
export function blockReward(milestones: Milestones, height: number): bigint {
  return BigInt(milestones.at(height).reward);
}
