import type { BlockHeader } from '@lni/crypto';

type MaybePromise<T> = T | Promise<T>;

/** A value a wallet field holds: amounts as bigint, flags as boolean. */
export type WalletFieldValue = string | bigint | number | boolean;

/** A condition on one field: any of `values` (OR), or within `from`..`to` inclusive. */
export type WalletCondition =
  | { readonly kind: 'in'; readonly field: string; readonly values: readonly WalletFieldValue[] }
  | {
      readonly kind: 'range';
      readonly field: string;
      readonly from?: WalletFieldValue;
      readonly to?: WalletFieldValue;
    };

export interface WalletOrdering {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/**
 * A position in an ordering, as JSON can carry it: per order field the value (amounts as
 * decimal strings, booleans as 0 or 1, null for none), then the address.
 */
export type WalletCursor = readonly (string | number | null)[];

/** Conditions, order and page as the ledger's wallet indexes take them. */
export interface WalletSearch {
  readonly conditions: readonly WalletCondition[];
  readonly orderBy: readonly WalletOrdering[];
  readonly offset: number;
  readonly limit: number;
  /** The position the page starts after (a `next` of an earlier page); offset is then 0. */
  readonly after?: WalletCursor;
}

export interface WalletSearchPage {
  readonly results: readonly WalletView[];
  /** Number of matches: exact unless `totalCountIsEstimate`. */
  readonly totalCount: number;
  /** True when an exact count would have visited more wallets than its budget. */
  readonly totalCountIsEstimate?: boolean;
  /** When the page is full: the position of its last item, for the next page's cursor. */
  readonly next?: WalletCursor;
}

/** A delegate's attributes as the ledger keeps them. */
export interface DelegateView {
  readonly username: string;
  readonly voteBalance: bigint;
  readonly forgedFees: bigint;
  readonly forgedRewards: bigint;
  readonly producedBlocks: number;
  /** Slots the delegate let pass; absent until it missed one. */
  readonly missedBlocks?: number;
  readonly rank?: number;
  readonly lastBlock?: { readonly id: string; readonly height: number; readonly timestamp: number };
  readonly resigned?: boolean;
}

/** An open HTLC lock, kept in its sender's wallet under the lock transaction's id. */
export interface HtlcLockView {
  readonly amount: bigint;
  readonly recipientId: string;
  readonly secretHash: string;
  /** type 1: epoch timestamp in seconds, type 2: block height. */
  readonly expiration: { readonly type: number; readonly value: number };
  /** Epoch seconds of the block that opened the lock. */
  readonly timestamp: number;
  readonly vendorField?: string;
}

/** A wallet as other plugins read it; delegate and HTLC attributes are typed, the rest shown. */
export interface WalletView {
  readonly address: string;
  readonly publicKey?: string;
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly attributes: {
    readonly delegate?: DelegateView;
    readonly htlc?: { readonly locks: Readonly<Record<string, HtlcLockView>> };
  };
}

/** The chain's last block, as much as the node and blockchain routes show of it. */
export type LastBlockSummary = Pick<BlockHeader, 'id' | 'height' | 'timestamp'>;

/** What shaping a block or transaction needs to know about the chain and the network. */
export interface ChainContext {
  /** Height of the last block: confirmations are counted from it. */
  readonly height: number;
  /** When the network's epoch began (the milestone `epoch`). */
  readonly epochStart: string;
  /** The network's address of a public key. */
  readonly addressOf: (publicKey: string) => string;
  /** The delegate username of a public key, when it is a delegate. */
  readonly usernameOf?: (publicKey: string) => string | undefined;
}

/**
 * What the API reads from the ledger's memory; the `state` plugin registers it as `ledger`.
 * Wallets and delegates are answered from the ledger's indexes, never by a scan.
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
  /**
   * The wallet an address, a public key or a delegate username names (in that precedence); an
   * api node reads it from PostgreSQL, so the answer may come later.
   */
  findWallet(id: string): MaybePromise<WalletView | undefined>;
  /** All coins in existence now. */
  supply(): bigint;
  /** The last block; undefined before the genesis block. */
  lastBlock(): LastBlockSummary | undefined;
  chainContext(): ChainContext;
  /**
   * The last block's id, undefined before the genesis block. Everything above changes only when
   * it does (a block applied or reverted): responses are cached per tip.
   */
  tip(): string | undefined;
}
