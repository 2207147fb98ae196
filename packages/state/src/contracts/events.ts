import type { BlockData, BlockHeader, TransactionData } from '@lni/crypto';
import type { PoolOrigin, PoolRemovalReason } from './pool.js';

/** A block of the ledger with its transactions, as block events carry it. */
export type LedgerBlock = BlockData<TransactionData>;

/**
 * The block a confirmed transaction is in, as much as its API shape needs (a confirmed
 * transaction's time is its block's).
 */
export type BlockPlace = Pick<BlockHeader, 'id' | 'height' | 'timestamp'>;

/** A delegate registered or resigned by a transaction of an applied block. */
export interface DelegateEvent {
  readonly username: string;
  readonly publicKey: string;
  readonly address: string;
  readonly transaction: string;
  readonly block: BlockPlace;
}

/** A delegate let its slot pass: published once the block after the gap is applied. */
export interface MissedSlotEvent {
  /** Height of the block that followed the gap. */
  readonly height: number;
  readonly round: number;
  readonly slot: number;
  /** Start of the slot, seconds since the network epoch. */
  readonly timestamp: number;
  /** The delegate's public key. */
  readonly delegate: string;
}

/** The events the ledger publishes on the kernel's bus; the API and webhooks read them. */
declare module '@lni/kernel' {
  interface EventMap {
    /** A block was applied to state and stored. */
    'block.applied': { readonly block: LedgerBlock };
    /** A block was taken off the chain (fork), state and storage. */
    'block.reverted': { readonly block: LedgerBlock };
    /** Each transaction of an applied block, in block order, before its `block.applied`. */
    'transaction.applied': {
      readonly transaction: TransactionData;
      readonly block: BlockPlace;
    };
    /**
     * A block's application elected the delegates of the next round (`round`, which begins at
     * `height + 1`): at the genesis block and at the last block of every round.
     */
    'round.applied': {
      readonly round: number;
      readonly height: number;
      /** Public keys in forging order. */
      readonly delegates: readonly string[];
      /** Votes of each elected delegate when elected (satoshi). */
      readonly votes: ReadonlyMap<string, bigint>;
    };
    'delegate.registered': DelegateEvent;
    'delegate.resigned': DelegateEvent;
    /** The wallets an applied or reverted block changed, each once, after its block event. */
    'wallets.changed': { readonly addresses: readonly string[]; readonly height: number };
    /** The pool took a transaction. */
    'transaction.pool.added': {
      readonly transaction: TransactionData;
      readonly origin: PoolOrigin;
    };
    /** A transaction announced as added left the pool. */
    'transaction.pool.removed': {
      readonly transaction: TransactionData;
      readonly reason: PoolRemovalReason;
    };
    'forger.missing': MissedSlotEvent;
  }
}
