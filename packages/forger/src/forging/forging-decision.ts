import { NetworkStatus } from '@lni/p2p/wire';
import type { NetworkState, RelayRound } from './relay-port.js';

export interface ForgingRules {
  /** Smallest share of peers that must agree with the relay's last block. */
  readonly minimumQuorum: number;
  /**
   * A development network may forge with fewer peers than the relay's minimum reach, and alone:
   * too few peers is then not a reason to wait (ARK's relays say so with CORE_ENV=test).
   */
  readonly allowSingleNode: boolean;
}

export type ForgingDecision =
  | { readonly forge: true }
  | {
      readonly forge: false;
      readonly reason: string;
      /** The option that lifts the refusal, where one does. */
      readonly remedy?: string;
    };

/** Too few peers is a refusal only this option lifts; a network of one node needs it. */
export const SINGLE_NODE_REMEDY =
  "a network whose delegates all forge on this node can forge without peers: set allowSingleNode to true in the forger's options in app.json";

/**
 * Decides whether forging the current slot is safe, naming the rule when it is not. The network
 * state is ARK's: a status, and the quorum details of the relay's peers (those at or below its
 * height on its chain count for the quorum; those above it or forked, against).
 */
export function decideForging(
  round: RelayRound,
  network: NetworkState,
  rules: ForgingRules,
): ForgingDecision {
  if (!round.canForge) return { forge: false, reason: 'outside the forging window of the slot' };
  const details = network.quorumDetails;
  const peers = details.peersQuorum + details.peersNoQuorum;
  switch (network.status) {
    case NetworkStatus.Unknown:
      return { forge: false, reason: 'the relay could not tell the network state' };
    case NetworkStatus.ColdStart:
      return { forge: false, reason: 'the relay is starting (cold start)' };
    case NetworkStatus.BelowMinimumPeers:
      if (!rules.allowSingleNode) {
        return {
          forge: false,
          reason: `the relay's ${peers} peers are below its minimum network reach`,
          remedy: SINGLE_NODE_REMEDY,
        };
      }
      break;
    default:
      break;
  }
  const next = round.lastBlock.height + 1;
  const forgedAlready = Object.values(details.peersOverHeightBlockHeaders).find(
    (header) => header.height === next,
  );
  if (forgedAlready) {
    return {
      forge: false,
      reason: `a block at height ${next} by ${forgedAlready.generatorPublicKey} is already on the network`,
    };
  }
  if (network.status === NetworkStatus.Test) return { forge: true };
  if (peers === 0) {
    return rules.allowSingleNode
      ? { forge: true }
      : {
          forge: false,
          reason: 'the relay has no peers and this network does not allow a single node',
          remedy: SINGLE_NODE_REMEDY,
        };
  }
  const quorum = details.peersQuorum / peers;
  if (quorum < rules.minimumQuorum) {
    const ahead = details.peersOverHeight;
    return {
      forge: false,
      reason:
        `network quorum ${quorum.toFixed(2)} is below ${rules.minimumQuorum}` +
        (ahead > 0 ? ` (${ahead} of ${peers} peers are above the relay's height)` : ''),
    };
  }
  return { forge: true };
}
