/** A value a criterion compares with; bigint for amounts beyond 2^53. */
export type Scalar = string | number | bigint | boolean | null;

/**
 * A criteria tree, as the API parses it from a query string or a search body. `field` is a
 * column name (`senderPublicKey`, `amount`, ...) or a path into the asset (`asset.votes`,
 * `asset.payments.recipientId`).
 */
export type Criteria =
  | { readonly and: readonly Criteria[] }
  | { readonly or: readonly Criteria[] }
  | { readonly field: string; readonly eq: Scalar }
  | { readonly field: string; readonly in: readonly Scalar[] }
  | { readonly field: string; readonly from?: Scalar; readonly to?: Scalar }
  | AddressCriterion;

/**
 * Transactions that involve an address: sent by it, sent to it, or paying it in a
 * multipayment. The database stores senders by public key only, so the caller passes the
 * public key(s) known for the address (from the wallet index); none means it never sent.
 */
export interface AddressCriterion {
  readonly address: string;
  readonly senderPublicKeys?: readonly string[];
}

export interface OrderBy {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

export interface SearchQuery {
  readonly criteria?: Criteria;
  readonly orderBy?: readonly OrderBy[];
  readonly limit: number;
  readonly offset: number;
  /**
   * Keyset paging: the order values of the last row of the previous page (`SearchPage.next`);
   * the page starts after that row, at `offset` from there (0 normally).
   */
  readonly after?: readonly Scalar[];
}

/** One page of results and the number of rows matching the criteria. */
export interface SearchPage<T> {
  readonly results: T[];
  readonly totalCount: number;
  /** True when `totalCount` is an estimate: an exact count would have exceeded its budget. */
  readonly totalCountIsEstimate?: boolean;
  /** The order values of the last result, to pass as `after` for the next page. */
  readonly next?: readonly Scalar[];
}
