import type { ChainContext } from '../resources/chain-context.js';
import type { LastBlockView, WalletView } from '../resources/ledger-views.js';
import type { FieldCondition, Ordering } from '../query/resource-query.js';

type MaybePromise<T> = T | Promise<T>;

/** Conditions, order and page as the in-memory wallet indexes take them. */
export interface WalletSearch {
  readonly conditions: readonly FieldCondition[];
  readonly orderBy: readonly Ordering[];
  readonly offset: number;
  readonly limit: number;
  /** The position the page starts after (a `next` of an earlier page); offset is then 0. */
  readonly after?: readonly (string | number | null)[];
}

export interface WalletSearchPage {
  readonly results: readonly WalletView[];
  /** Number of matches: exact unless `totalCountIsEstimate`. */
  readonly totalCount: number;
  /** True when an exact count would have visited more wallets than its budget. */
  readonly totalCountIsEstimate?: boolean;
  /** When the page is full: the position of its last item, for `meta.next`'s cursor. */
  readonly next?: readonly (string | number | null)[];
}

/**
 * What the API reads from the ledger's memory. The state plugin registers the implementation
 * as `apiLedger`; wallets and delegates are answered from its indexes, never by a scan here.
 */
export interface LedgerReader {
  /**
   * Wallets by wallet field paths (`balance`, `attributes.delegate.username`, …). A costly
   * query may be answered off the node's thread, so the answer may come later; past
   * `deadline` (epoch ms) nobody waits for it and the ledger may refuse it as busy.
   */
  wallets(search: WalletSearch, deadline: number): MaybePromise<WalletSearchPage>;
  /** Delegates by delegate resource fields (`votes`, `rank`, `blocks.produced`, …). */
  delegates(search: WalletSearch, deadline: number): MaybePromise<WalletSearchPage>;
  /** The wallet an address, a public key or a delegate username names. */
  findWallet(id: string): WalletView | undefined;
  /** All coins in existence now. */
  supply(): bigint;
  /** The last block; undefined before the genesis block. */
  lastBlock(): LastBlockView | undefined;
  chainContext(): ChainContext;
  /**
   * The last block's id, undefined before the genesis block. Everything above changes only when
   * it does (a block applied or reverted): responses are cached per tip.
   */
  tip(): string | undefined;
}
