import { describe, expect, it } from 'vitest';
import { TEST_MILESTONE_ENTRIES, testMilestones } from './__fixtures__/test-milestones.js';
import { Milestones } from './milestones.js';
import { calculateRound, isNewRound, RoundConfigError } from './rounds.js';

describe('calculateRound', () => {
  const milestones = testMilestones();

  it('counts rounds of activeDelegates blocks from height 1', () => {
    expect(calculateRound(1, milestones)).toEqual({
      round: 1,
      roundHeight: 1,
      nextRound: 1,
      maxDelegates: 5,
    });
    expect(calculateRound(5, milestones)).toEqual({
      round: 1,
      roundHeight: 1,
      nextRound: 2,
      maxDelegates: 5,
    });
    expect(calculateRound(6, milestones)).toEqual({
      round: 2,
      roundHeight: 6,
      nextRound: 2,
      maxDelegates: 5,
    });
    expect(calculateRound(20, milestones)).toEqual({
      round: 4,
      roundHeight: 16,
      nextRound: 5,
      maxDelegates: 5,
    });
  });

  it('continues with the new count after a milestone changes it at a round start', () => {
    // Heights 1-20 are four rounds of 5; from 21 rounds hold 7 blocks.
    expect(calculateRound(21, milestones)).toEqual({
      round: 5,
      roundHeight: 21,
      nextRound: 5,
      maxDelegates: 7,
    });
    expect(calculateRound(27, milestones)).toEqual({
      round: 5,
      roundHeight: 21,
      nextRound: 6,
      maxDelegates: 7,
    });
    expect(calculateRound(28, milestones)).toEqual({
      round: 6,
      roundHeight: 28,
      nextRound: 6,
      maxDelegates: 7,
    });
    expect([20, 21, 27, 28, 35].map((h) => isNewRound(h, milestones))).toEqual([
      false,
      true,
      false,
      true,
      true,
    ]);
  });

  it('refuses a delegate count change in the middle of a round, naming the milestone', () => {
    const bad = new Milestones([
      ...TEST_MILESTONE_ENTRIES.slice(0, 2),
      { height: 23, activeDelegates: 7 },
    ]);
    expect(() => calculateRound(30, bad)).toThrow(RoundConfigError);
    expect(() => calculateRound(30, bad)).toThrow(/height 23/);
    expect(() => calculateRound(0, milestones)).toThrow(/height/);
  });
});
