import { DeserializationError, deserializeTransaction, type TransactionData } from '@lni/crypto';
import { KernelError } from '@lni/kernel';
import type { PoolAdmission } from './pool-admission.js';
import type { PoolAnnouncer } from './pool-announcer.js';
import type { PoolIndex } from './pool-index.js';
import type { PoolKeeper } from './pool-keeper.js';
import type { PoolLedger } from './pool-ledger.js';
import type { PoolReconciliation } from './pool-reconciliation.js';

/** A transaction kept from before a restart: its wire bytes and when it first arrived. */
export interface SavedTransaction {
  /** Known when it comes from the pool's storage, so that a row that no longer parses can go. */
  readonly id?: string;
  readonly serialized: Uint8Array;
  /** Unix ms. */
  readonly addedAt: number;
}

/** What `restore` took back, and why it left out the others (reason as in `PoolRejection`). */
export interface RestoreResult {
  readonly restored: number;
  readonly dropped: readonly { readonly id?: string; readonly reason: string }[];
}

export interface PoolRestoreDeps {
  readonly index: PoolIndex;
  readonly admission: PoolAdmission;
  readonly reconciliation: PoolReconciliation;
  readonly ledger: PoolLedger;
  readonly keeper: PoolKeeper;
  readonly announcer: PoolAnnouncer;
  readonly maxAgeSeconds: number;
}

/** Transactions judged (and signatures verified) at a time. */
const RESTORE_CHUNK = 1_000;

/**
 * Takes back transactions kept from before a restart, in the order given (the order they were
 * accepted in, so each sender's nonces ascend), each with its arrival time, judged again on
 * current state. `inStorage`: they come from the pool's storage, which forgets the ones left
 * out; otherwise those taken back are written to it.
 */
export async function restoreTransactions(
  deps: PoolRestoreDeps,
  saved: readonly SavedTransaction[],
  { inStorage }: { readonly inStorage: boolean },
): Promise<RestoreResult> {
  const { index, admission, reconciliation, ledger, keeper, announcer } = deps;
  const oldest = ledger.now() - deps.maxAgeSeconds * 1000;
  const dropped: { id?: string; reason: string }[] = [];
  const candidates: { tx: TransactionData; addedAt: number; id?: string }[] = [];
  for (const item of saved) {
    try {
      const tx = deserializeTransaction(Buffer.from(item.serialized));
      if (item.addedAt < oldest) dropped.push({ id: item.id ?? tx.id, reason: 'expired' });
      else candidates.push({ tx, addedAt: item.addedAt, ...(item.id && { id: item.id }) });
    } catch (error) {
      if (!(error instanceof DeserializationError)) throw error;
      dropped.push({ ...(item.id && { id: item.id }), reason: 'malformed' });
    }
  }
  let restored = 0;
  for (let start = 0; start < candidates.length; start += RESTORE_CHUNK) {
    const chunk = candidates.slice(start, start + RESTORE_CHUNK);
    const transactions = chunk.map((candidate) => candidate.tx);
    const verdicts = await admission.verify(transactions);
    const judged = admission.admitAll(
      transactions,
      (i) => (chunk[i] as { addedAt: number }).addedAt,
      verdicts,
    );
    for (const refusal of judged.rejected) {
      dropped.push({ id: chunk[refusal.index]?.id ?? refusal.id, reason: refusal.reason });
    }
    const entries = judged.admitted.map((item) => item.entry);
    if (inStorage) {
      keeper.forgetRemoved();
    } else {
      try {
        await keeper.keep(entries);
      } catch (error) {
        reconciliation.undo(entries);
        throw new KernelError(
          'ERR_POOL_STORAGE',
          `the pool's storage did not take restored transactions: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    restored += entries.length;
    announcer.added(entries, 'restored');
    announcer.settle((id) => index.has(id));
  }
  if (inStorage) keeper.forget(dropped.flatMap((item) => (item.id ? [item.id] : [])));
  return { restored, dropped };
}
