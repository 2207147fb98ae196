import type { AppliedBlockEvent } from './chain-events.js';
import type { BlockData, TransactionData } from '@lni/crypto';
import type { LastBlock } from '../wallets/last-block.js';

export type FullBlock = BlockData<TransactionData>;

export interface StoredLock {
  readonly transaction: TransactionData;
  /** Seconds since the epoch of the block that holds it. */
  readonly timestamp: number;
}

/** What a revert left: the new tip and the wallets it changed (removed ones included). */
export interface RevertedState {
  readonly tip: { readonly height: number; readonly id: string };
  readonly changed: readonly string[];
}

/** Where the chain is kept; the processor writes through it last, after state has changed. */
export interface BlockStore {
  /** The highest block, without transactions; undefined for an empty chain. */
  lastBlock(): Promise<FullBlock | undefined>;
  blockById(id: string): Promise<FullBlock | undefined>;
  /** Blocks with their transactions, `from <= height <= to`, ascending. */
  blocksInRange(from: number, to: number): Promise<FullBlock[]>;
  /**
   * Saves the block and its transactions as one unit; `serialized`, when given, are the
   * transactions' wire bytes, stored as they are. `events`: what the block did, for the
   * plugins that write something with it (see CommittedBlock).
   */
  save(
    block: FullBlock,
    serialized?: readonly Uint8Array[],
    events?: readonly AppliedBlockEvent[],
  ): Promise<void>;
  /**
   * Deletes every block above `height` and its transactions, as one unit; `reverted`, when
   * given, is the state the revert left, written in the same unit (the wallet table).
   */
  deleteAbove(height: number, reverted?: RevertedState): Promise<void>;
  /** The last block `generatorPublicKey` forged below `height` (a delegate's lastBlock on revert). */
  lastForgedBy(generatorPublicKey: string, belowHeight: number): Promise<LastBlock | undefined>;
  /**
   * A stored transaction and the timestamp of its block: reverting an HTLC claim or refund
   * re-opens the lock exactly as its lock transaction made it.
   */
  transactionById(id: string): Promise<StoredLock | undefined>;
}

/** A stored block as peers download it: its header, and its transactions' wire bytes. */
export interface StoredWireBlock {
  /** The header, without transactions. */
  readonly block: FullBlock;
  readonly transactions: readonly Buffer[];
}

/** What p2p's getBlocks reads: stored bytes as they are, nothing parsed and written again. */
export interface WireBlockSource {
  /** Blocks `from <= height <= to`, ascending; transactions only when asked for. */
  wireBlocksInRange(
    from: number,
    to: number,
    withTransactions: boolean,
  ): Promise<StoredWireBlock[]>;
}
