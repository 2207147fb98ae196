import { NetworkStatus } from '@lni/p2p/wire';
import { describe, expect, it } from 'vitest';
import { decideForging, type ForgingRules } from './forging-decision.js';
import type { NetworkState, RelayRound } from './relay-port.js';

const round: RelayRound = {
  round: 3,
  reward: 200_000_000n,
  slotTimestamp: 800,
  canForge: true,
  currentForger: '02aa',
  nextForger: '02bb',
  lastBlock: { id: '1', height: 120 },
  msUntilNextSlot: 4_000,
};
const details = {
  peersQuorum: 9,
  peersNoQuorum: 1,
  peersOverHeight: 0,
  peersOverHeightBlockHeaders: {},
  peersForked: 1,
  peersDifferentSlot: 0,
  peersForgingNotAllowed: 0,
};
const healthy: NetworkState = {
  status: NetworkStatus.Default,
  nodeHeight: 120,
  lastBlockId: '1',
  quorumDetails: details,
};
const rules: ForgingRules = { minimumQuorum: 0.66, allowSingleNode: false };

describe('deciding whether to forge a slot (ARK network states)', () => {
  it('forges on a healthy network in the forging window', () => {
    expect(decideForging(round, healthy, rules)).toEqual({ forge: true });
  });

  it('refuses, naming the rule, when forging could fork or double-forge', () => {
    expect(decideForging({ ...round, canForge: false }, healthy, rules)).toEqual({
      forge: false,
      reason: 'outside the forging window of the slot',
    });
    const behind = { ...details, peersQuorum: 2, peersNoQuorum: 8, peersOverHeight: 8 };
    expect(decideForging(round, { ...healthy, quorumDetails: behind }, rules)).toEqual({
      forge: false,
      reason: "network quorum 0.20 is below 0.66 (8 of 10 peers are above the relay's height)",
    });
    const taken = {
      ...details,
      peersOverHeightBlockHeaders: { x: { id: 'x', height: 121, generatorPublicKey: '02aa' } },
    };
    expect(decideForging(round, { ...healthy, quorumDetails: taken }, rules)).toEqual({
      forge: false,
      reason: 'a block at height 121 by 02aa is already on the network',
    });
    for (const [status, reason] of [
      [NetworkStatus.Unknown, /could not tell/],
      [NetworkStatus.ColdStart, /cold start/],
      [NetworkStatus.BelowMinimumPeers, /below its minimum network reach/],
    ] as const) {
      const decision = decideForging(round, { ...healthy, status }, rules);
      expect(decision.forge).toBe(false);
      expect(decision.forge ? '' : decision.reason).toMatch(reason);
    }
  });

  it("trusts a relay in ARK's test status (quorum 1)", () => {
    const alone = { ...details, peersQuorum: 0, peersNoQuorum: 0 };
    expect(
      decideForging(round, { ...healthy, status: NetworkStatus.Test, quorumDetails: alone }, rules),
    ).toEqual({ forge: true });
  });

  it('forges with few or no peers only where the network allows a single node', () => {
    const none = { ...details, peersQuorum: 0, peersNoQuorum: 0, peersForked: 0 };
    const alone: NetworkState = {
      ...healthy,
      status: NetworkStatus.BelowMinimumPeers,
      quorumDetails: none,
    };
    expect(decideForging(round, alone, rules).forge).toBe(false);
    const single = { ...rules, allowSingleNode: true };
    expect(decideForging(round, alone, single)).toEqual({ forge: true });
    // A few peers below the relay's minimum: the quorum among them still decides.
    const few = { ...none, peersQuorum: 1, peersNoQuorum: 2, peersForked: 2 };
    expect(decideForging(round, { ...alone, quorumDetails: few }, single)).toMatchObject({
      forge: false,
      reason: expect.stringMatching(/quorum 0.33/),
    });
  });
});
