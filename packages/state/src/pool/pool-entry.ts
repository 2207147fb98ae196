import type { TransactionData } from '@lni/crypto';

/** A pooled transaction with what ordering and limits need, computed once. */
export interface PoolEntry {
  readonly tx: TransactionData;
  readonly id: string;
  readonly sender: string;
  readonly bytes: Buffer;
  /** Arktoshi per serialized byte, the ordering key. */
  readonly feePerByte: number;
  /** Unix ms when it entered the pool (kept across restarts). */
  readonly addedAt: number;
}

/** Better first: higher fee per byte, then earlier arrival, then id for a total order. */
export function compareEntries(a: PoolEntry, b: PoolEntry): number {
  if (a.feePerByte !== b.feePerByte) return b.feePerByte - a.feePerByte;
  if (a.addedAt !== b.addedAt) return a.addedAt - b.addedAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
