import { describe, expect, it } from 'vitest';
import { decideForging, type ForgingRules } from './forging-decision.js';
import type { NetworkState, RoundInfo } from './relay-port.js';

const round: RoundInfo = {
  round: 3,
  reward: 200_000_000n,
  slotTimestamp: 800,
  canForge: true,
  currentForger: '02aa',
  nextForger: '02bb',
  lastBlock: { id: '1', height: 120 },
  msUntilNextSlot: 4_000,
};
const healthy: NetworkState = {
  nodeHeight: 120,
  networkHeight: 120,
  peers: 9,
  quorum: 0.9,
  blocksAboveHeight: [],
};
const rules: ForgingRules = { minimumQuorum: 0.66, allowSingleNode: false };

describe('deciding whether to forge a slot', () => {
  it('forges on a healthy network in the forging window', () => {
    expect(decideForging(round, healthy, rules)).toEqual({ forge: true });
  });

  it('refuses, naming the rule, when forging could fork or double-forge', () => {
    expect(decideForging({ ...round, canForge: false }, healthy, rules)).toEqual({
      forge: false,
      reason: 'outside the forging window of the slot',
    });
    expect(decideForging(round, { ...healthy, nodeHeight: 100 }, rules)).toEqual({
      forge: false,
      reason: 'relay is behind the network (height 100 of 120)',
    });
    expect(decideForging(round, { ...healthy, quorum: 0.5 }, rules)).toEqual({
      forge: false,
      reason: 'network quorum 0.50 is below 0.66',
    });
    expect(
      decideForging(
        round,
        { ...healthy, blocksAboveHeight: [{ height: 121, generatorPublicKey: '02aa' }] },
        rules,
      ),
    ).toEqual({ forge: false, reason: 'a block at height 121 by 02aa is already on the network' });
  });

  it('forges alone only where the network allows a single node', () => {
    const alone = { ...healthy, peers: 0, quorum: 0 };
    expect(decideForging(round, alone, rules).forge).toBe(false);
    expect(decideForging(round, alone, { ...rules, allowSingleNode: true })).toEqual({
      forge: true,
    });
  });
});
