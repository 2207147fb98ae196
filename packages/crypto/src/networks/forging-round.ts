import type { BlockReference } from '../blocks/block-data.js';

/**
 * The current round as a relay answers getCurrentRound and a forger acts on it: the one shape
 * inside, whichever side (the wire's is p2p's `CurrentRoundReply`). The ledger gives the whole
 * last block (ARK's reply carries it); a forger reads its reference.
 */
export interface ForgingRound<LastBlock extends BlockReference = BlockReference> {
  /** Round number, 1-based. */
  readonly round: number;
  /** Reward of the next block, in arktoshi. */
  readonly reward: bigint;
  /** Seconds since the network's epoch at the start of the current slot. */
  readonly slotTimestamp: number;
  /** Whether now is within the forging window of the slot (and the slot has no block yet). */
  readonly canForge: boolean;
  /** The round's delegates in forging order. */
  readonly delegates: readonly RoundDelegate[];
  /** Public keys (hex) of the delegate of the current slot and of the next one. */
  readonly currentForger: string;
  readonly nextForger: string;
  /** The relay's last block: the next block builds on it. */
  readonly lastBlock: LastBlock;
}

/** A delegate of a forging round as getCurrentRound lists it. */
export interface RoundDelegate {
  readonly publicKey: string;
  readonly address: string;
  readonly username: string;
  /** Arktoshi, decimal. */
  readonly balance: string;
  readonly voteBalance: string;
  readonly nonce: string;
  readonly rank?: number;
}
