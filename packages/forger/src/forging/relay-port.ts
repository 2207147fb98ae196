import type { ForgingRound } from '@lni/crypto';
import type { NetworkStateReply } from '@lni/p2p/wire';

/**
 * The relay's round as the forger acts on it: p2p's `ForgingRound` without the delegate list
 * (the forger needs only whose slot it is and whose comes next), with when the next slot begins
 * by this process's clock.
 */
export type RelayRound = Omit<ForgingRound, 'delegates' | 'lastBlock'> & {
  /** Milliseconds until the next slot begins. */
  readonly msUntilNextSlot: number;
  /**
   * The relay's last block; who signed it and for which slot, when the relay says (ARK and LNI
   * relays do): the double-sign guard looks for blocks signed with its keys elsewhere.
   */
  readonly lastBlock: {
    readonly id: string;
    readonly height: number;
    readonly generatorPublicKey?: string;
    readonly timestamp?: number;
  };
  /** The current slot's delegate's username, when the relay names it. */
  readonly currentForgerUsername?: string;
};

/** The relay's view of the network, in ARK Core 3.x's shape (whichever relay answers). */
export type NetworkState = NetworkStateReply;

/**
 * What the forger asks of a relay, over the relay's internal P2P endpoints. The same code path
 * serves the in-process forger of core mode and a forger process talking to remote relays.
 */
export interface RelayPort {
  /** Where the relay is, for logs. */
  readonly name: string;
  currentRound(): Promise<RelayRound>;
  networkState(): Promise<NetworkState>;
  /** Serialized (hex) transactions for the next block, best first, within the milestone limits. */
  transactionsForBlock(): Promise<readonly string[]>;
  /** Posts a forged, serialized block. */
  postBlock(block: Buffer): Promise<void>;
}
