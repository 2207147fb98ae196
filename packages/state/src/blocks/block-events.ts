import type { TransactionData } from '@lni/crypto';
import type { FullBlock } from './block-store.js';

declare module '@lni/kernel' {
  interface EventMap {
    /** A block was applied to state and stored. */
    'block.applied': { readonly block: FullBlock };
    /** A block was taken off the chain (fork), state and storage. */
    'block.reverted': { readonly block: FullBlock };
    'transaction.applied': {
      readonly transaction: TransactionData;
      readonly block: { readonly id: string; readonly height: number };
    };
  }
}

export {};
