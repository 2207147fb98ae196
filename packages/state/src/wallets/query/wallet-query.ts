import type { WalletCondition, WalletCursor, WalletOrdering } from '../../contracts/ledger.js';
import type { Wallet } from '../wallet.js';

// The query's shape is the ledger's contract: the API hands its parsed criteria over unchanged.
export type { WalletCondition, WalletCursor, WalletOrdering };

/**
 * Conditions (AND across them), an order and a page. Ties of the order are broken by address,
 * in the direction of the first ordering, so every page is deterministic; a wallet without a
 * value for an order field sorts after all values when ascending and before them when
 * descending (PostgreSQL's default, so state-served and database-served lists behave alike).
 */
export interface WalletQuery {
  readonly conditions?: readonly WalletCondition[];
  readonly orderBy?: readonly WalletOrdering[];
  readonly offset?: number;
  readonly limit?: number;
  /**
   * The page after the wallet at this position (a `next` of an earlier page): its value for
   * each order field, then its address. `offset` is then ignored.
   */
  readonly after?: WalletCursor;
}

export interface WalletPage {
  readonly results: readonly Wallet[];
  /** Number of wallets matching the conditions: exact unless flagged an estimate. */
  readonly totalCount: number;
  /**
   * True when counting exactly would have visited more wallets than the engine's count budget:
   * the total is then the share of matches among the wallets visited, scaled to all candidates.
   */
  readonly totalCountIsEstimate?: boolean;
  /** When the page is full: the position of its last wallet, for the page after it. */
  readonly next?: WalletCursor;
}

/** `wallets`: every wallet; `delegates`: wallets with delegate attributes (resigned ones too). */
export type WalletScope = 'wallets' | 'delegates';
