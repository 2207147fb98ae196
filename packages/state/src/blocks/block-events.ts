import type { BlockHeader, TransactionData } from '@lni/crypto';
import type { FullBlock } from './block-store.js';

/**
 * The block a confirmed transaction is in, as much as its API shape needs (a confirmed
 * transaction's time is its block's).
 */
export type BlockReference = Pick<BlockHeader, 'id' | 'height' | 'timestamp'>;

/** A delegate registered or resigned by a transaction of an applied block. */
export interface DelegateEvent {
  readonly username: string;
  readonly publicKey: string;
  readonly address: string;
  readonly transaction: string;
  readonly block: BlockReference;
}

declare module '@lni/kernel' {
  interface EventMap {
    /** A block was applied to state and stored. */
    'block.applied': { readonly block: FullBlock };
    /** A block was taken off the chain (fork), state and storage. */
    'block.reverted': { readonly block: FullBlock };
    /** Each transaction of an applied block, in block order, before its `block.applied`. */
    'transaction.applied': {
      readonly transaction: TransactionData;
      readonly block: BlockReference;
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
  }
}

export {};
