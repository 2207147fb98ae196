import type { NetworkState, RoundInfo } from './relay-port.js';

export interface ForgingRules {
  /** Smallest share of peers that must agree with the relay's last block. */
  readonly minimumQuorum: number;
  /** A development network may forge alone: no peers is then not a reason to wait. */
  readonly allowSingleNode: boolean;
}

export type ForgingDecision =
  { readonly forge: true } | { readonly forge: false; readonly reason: string };

/** Decides whether forging the current slot is safe, naming the rule when it is not. */
export function decideForging(
  round: RoundInfo,
  network: NetworkState,
  rules: ForgingRules,
): ForgingDecision {
  if (!round.canForge) return { forge: false, reason: 'outside the forging window of the slot' };
  if (network.nodeHeight < network.networkHeight) {
    return {
      forge: false,
      reason: `relay is behind the network (height ${network.nodeHeight} of ${network.networkHeight})`,
    };
  }
  if (network.peers === 0) {
    return rules.allowSingleNode
      ? { forge: true }
      : {
          forge: false,
          reason: 'relay has no peers and this network does not allow a single node',
        };
  }
  if (network.quorum < rules.minimumQuorum) {
    return {
      forge: false,
      reason: `network quorum ${network.quorum.toFixed(2)} is below ${rules.minimumQuorum}`,
    };
  }
  const next = round.lastBlock.height + 1;
  const forgedAlready = network.blocksAboveHeight.find((block) => block.height === next);
  if (forgedAlready) {
    return {
      forge: false,
      reason: `a block at height ${next} by ${forgedAlready.generatorPublicKey} is already on the network`,
    };
  }
  return { forge: true };
}
