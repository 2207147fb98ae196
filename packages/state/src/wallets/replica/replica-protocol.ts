import type { Wallet } from '../wallet.js';
import type { WalletPage, WalletQuery, WalletScope } from '../query/wallet-query.js';

/**
 * Messages to the replica worker, in the order the node's state changed: a query is answered
 * on the state as it was when the query was sent, since every change sent before it has been
 * applied first (one message port keeps the order).
 */
export type ReplicaRequest =
  | { readonly kind: 'load'; readonly wallets: readonly Wallet[] }
  /** Each changed wallet as it is now; undefined: it no longer exists. */
  | {
      readonly kind: 'mirror';
      readonly changes: readonly (readonly [string, Wallet | undefined])[];
    }
  | {
      readonly kind: 'query';
      readonly id: number;
      readonly scope: WalletScope;
      readonly query: WalletQuery;
      /** Epoch ms after which nobody waits for the answer: it is skipped, not computed. */
      readonly deadline: number;
    };

export type ReplicaResponse =
  | { readonly id: number; readonly kind: 'page'; readonly page: WalletPage }
  | { readonly id: number; readonly kind: 'expired' }
  | {
      readonly id: number;
      readonly kind: 'refused';
      readonly message: string;
      readonly field?: string;
    }
  | { readonly id: number; readonly kind: 'failed'; readonly message: string };
