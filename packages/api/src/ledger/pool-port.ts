import type { TransactionData } from '@lni/crypto';

/** Why the pool refused a transaction; `reason` is a short stable code. */
export interface PoolRefusal {
  readonly index: number;
  readonly id?: string;
  readonly reason: string;
  readonly message: string;
}

/** The transaction pool as the API uses it; the state plugin registers it as `transactionPool`. */
export interface PoolPort {
  add(transactions: readonly TransactionData[]): Promise<{
    readonly accepted: readonly string[];
    readonly rejected: readonly PoolRefusal[];
  }>;
  get(id: string): TransactionData | undefined;
  /** Every pooled transaction, best first. */
  all(): readonly TransactionData[];
}
