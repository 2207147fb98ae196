import type { BlockHeader, ForgingRound } from '@lni/crypto';

/**
 * What a forger needs from the ledger, served on the internal P2P routes in ARK Core 3.x's
 * shapes. The `state` plugin registers the implementation as `forgingSource`.
 */
export interface ForgingSource {
  /** The round and slot as the ledger sees them now. */
  currentRound(): ForgingRound<BlockHeader> | Promise<ForgingRound<BlockHeader>>;
  /** Serialized (hex) transactions for the next block, best first, within the milestone limits. */
  transactionsForForging(): readonly string[] | Promise<readonly string[]>;
  /** Transactions waiting in the pool. */
  poolSize(): number;
}

/** A registered delegate as a forger in the same process checks its keys against it. */
export interface DirectoryDelegate {
  readonly username: string;
  readonly resigned: boolean;
}

/**
 * The registered delegates, for a forger running in the same process as the ledger (core
 * mode): the `state` plugin registers it as `delegates`. A forger process on its own has no
 * ledger, and its relays' protocol does not list delegates.
 */
export interface DelegateDirectory {
  /** Height of the ledger's last block: what "registered" is judged at. */
  height(): number;
  /** The delegate registered with this public key (hex), or undefined when there is none. */
  delegate(publicKey: string): DirectoryDelegate | undefined;
}
