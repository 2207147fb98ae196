import type { NetworkStateReply } from '@lni/p2p/wire';

/**
 * What the forger asks of a relay, over the relay's internal P2P endpoints. The same code path
 * serves the in-process forger of core mode and a forger process talking to remote relays.
 */
export interface RoundInfo {
  /** Round number, 1-based. */
  readonly round: number;
  /** Reward of the next block. */
  readonly reward: bigint;
  /** Epoch seconds at the start of the current slot. */
  readonly slotTimestamp: number;
  /** Whether the current time is within the forging window of the slot. */
  readonly canForge: boolean;
  /** The delegate whose slot it is, and who comes next. */
  readonly currentForger: string;
  readonly nextForger: string;
  /** The relay's last block: the next block builds on it. */
  readonly lastBlock: { readonly id: string; readonly height: number };
  /** Milliseconds until the next slot begins. */
  readonly msUntilNextSlot: number;
}

/** The relay's view of the network, in ARK Core 3.x's shape (whichever relay answers). */
export type NetworkState = NetworkStateReply;

export interface RelayPort {
  /** Where the relay is, for logs. */
  readonly name: string;
  currentRound(): Promise<RoundInfo>;
  networkState(): Promise<NetworkState>;
  /** Serialized (hex) transactions for the next block, best first, within the milestone limits. */
  transactionsForBlock(): Promise<readonly string[]>;
  /** Posts a forged, serialized block. */
  postBlock(block: Buffer): Promise<void>;
}
