import type { SignerRegistrations, TransactionData } from '@lni/crypto';

/** A pooled transaction with what ordering and limits need, computed once. */
export interface PoolEntry {
  readonly tx: TransactionData;
  readonly id: string;
  readonly sender: string;
  /** The wire bytes, kept so that nothing serializes the transaction again. */
  readonly bytes: Buffer;
  /** Arktoshi per serialized byte, the ordering key. */
  readonly feePerByte: number;
  /** Unix ms when it entered the pool (kept across restarts). */
  readonly addedAt: number;
  /**
   * The sender's registrations the pool verified the signatures under; absent when it took the
   * transaction back from a reverted block without verifying it again.
   */
  readonly verifiedUnder?: SignerRegistrations;
}

/** Better first: higher fee per byte, then earlier arrival, then id for a total order. */
export function compareEntries(a: PoolEntry, b: PoolEntry): number {
  if (a.feePerByte !== b.feePerByte) return b.feePerByte - a.feePerByte;
  if (a.addedAt !== b.addedAt) return a.addedAt - b.addedAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
