import type { Service } from '@lni/database';
import type { PoolStorage, StoredPoolTransaction } from '../storage/pool-storage.js';
import type { Logger } from '@lni/kernel';
import type { PoolEntry } from './pool-entry.js';

export interface PoolJournalDeps {
  readonly poolStorage: Pick<Service<PoolStorage>, 'save'>;
  readonly logger: Logger;
}

/** Changes waiting for the next write, reduced to what storage must end up with. */
interface PendingWrite {
  /** Ids whose rows go, deleted before the insert. */
  readonly removed: Set<string>;
  /** Rows to insert, in the order the pool took them. */
  readonly added: Map<string, StoredPoolTransaction>;
  readonly waiters: { resolve(): void; reject(error: unknown): void }[];
  /** Removals nobody waits for, reported when their write fails. */
  forgotten: number;
}

/**
 * Writes the pool's changes to storage in the order the pool made them, one write at a time.
 * Changes made while a write runs wait and go together in the next one (one commit, one
 * multi-row insert): under concurrent submissions the commit's flush to disk is shared rather
 * than queued once per request.
 */
export class PoolJournal {
  readonly #deps: PoolJournalDeps;
  #pending: PendingWrite | undefined;
  #running: Promise<void> | undefined;

  constructor(deps: PoolJournalDeps) {
    this.#deps = deps;
  }

  /**
   * Forgets `removed` then adds `added`, after every earlier change; resolves once committed,
   * rejects if that write failed.
   */
  record(added: readonly PoolEntry[], removed: readonly string[]): Promise<void> {
    const write = this.#next();
    for (const id of removed) forgetIn(write, id);
    for (const entry of added) {
      write.added.delete(entry.id);
      write.added.set(entry.id, { id: entry.id, serialized: entry.bytes, addedAt: entry.addedAt });
    }
    return new Promise((resolve, reject) => write.waiters.push({ resolve, reject }));
  }

  /**
   * Forgets `ids` after every earlier change. A failure is logged, not thrown: rows left behind
   * are judged again at the next boot and dropped then if no longer valid.
   */
  forget(ids: readonly string[]): void {
    if (ids.length === 0) return;
    const write = this.#next();
    for (const id of ids) forgetIn(write, id);
    write.forgotten += ids.length;
  }

  /** Resolves once every change so far is written (or failed to be). */
  async flush(): Promise<void> {
    const last = this.#pending;
    if (last) {
      await new Promise<void>((resolve) => last.waiters.push({ resolve, reject: () => resolve() }));
    } else {
      await this.#running;
    }
  }

  #next(): PendingWrite {
    if (!this.#pending) {
      this.#pending = { removed: new Set(), added: new Map(), waiters: [], forgotten: 0 };
      if (!this.#running) queueMicrotask(() => this.#startNext());
    }
    return this.#pending;
  }

  #startNext(): void {
    const write = this.#pending;
    this.#pending = undefined;
    if (!write) return;
    this.#running = this.#write(write).finally(() => {
      this.#running = undefined;
      this.#startNext();
    });
  }

  async #write(write: PendingWrite): Promise<void> {
    try {
      await this.#deps.poolStorage.save([...write.added.values()], [...write.removed]);
      for (const waiter of write.waiters) waiter.resolve();
    } catch (error) {
      if (write.forgotten > 0) {
        this.#deps.logger.warn(
          { err: error, transactions: write.forgotten },
          'Pool transactions not removed from storage; the next start re-checks them',
        );
      }
      for (const waiter of write.waiters) waiter.reject(error);
    }
  }
}

/** The row goes, whether it was stored before or only waited to be inserted by this write. */
function forgetIn(write: PendingWrite, id: string): void {
  write.added.delete(id);
  write.removed.add(id);
}
