import type { TransactionData } from '@lni/crypto';

/** Where a pooled transaction came from: the node's API, a peer, or the pool kept at restart. */
export type PoolOrigin = 'submitted' | 'peer' | 'restored';

/**
 * Why a transaction left the pool: included in a block, dropped because it no longer applies
 * (or expired, or storage refused it), or evicted by a better-paying one when the pool was full.
 */
export type PoolRemovalReason = 'confirmed' | 'dropped' | 'evicted';

/**
 * Why the pool refused a transaction. `reason` is stable and short: 'malformed', 'invalid',
 * 'signature', 'duplicate', 'expired', 'request.tooMany', 'sender.full', 'pool.full', or the
 * rule a handler or the common rules named ('nonce', 'balance', 'fee', 'vote.unknownDelegate').
 */
export interface PoolRejection {
  /** Position in the submitted list. */
  readonly index: number;
  readonly id?: string;
  readonly reason: string;
  readonly message: string;
}

export interface PoolResult {
  /** Ids of the transactions now in the pool. */
  readonly accepted: readonly string[];
  readonly rejected: readonly PoolRejection[];
}

/**
 * The transaction pool as other plugins use it; the `state` plugin registers it as
 * `transactionPool`. Taking transactions out is the ledger's business, not a consumer's.
 */
export interface Pool {
  readonly size: number;
  has(id: string): boolean;
  get(id: string): TransactionData | undefined;
  /** A sender's pooled transactions in nonce order. */
  bySender(address: string): readonly TransactionData[];
  /** Every pooled transaction, best first (fee per byte, then arrival). */
  all(): readonly TransactionData[];
  /** Judges and adds transactions in the given order; accepted ones are kept when it resolves. */
  add(
    transactions: readonly TransactionData[],
    addedAt?: number,
    origin?: PoolOrigin,
  ): Promise<PoolResult>;
}

/** Limits of the pool, as /node/configuration shows them under `transactionPool`. */
export interface PoolLimits {
  readonly maxTransactionsInPool: number;
  readonly maxTransactionsPerSender: number;
  readonly maxTransactionsPerRequest: number;
  readonly dynamicFees: { readonly enabled: boolean; readonly [key: string]: unknown };
}
