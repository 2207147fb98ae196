import type { PoolStorage, Service } from '@lni/database';
import type { Logger } from '@lni/kernel';
import type { PoolEntry } from './pool-entry.js';

export interface PoolJournalDeps {
  readonly poolStorage: Pick<Service<PoolStorage>, 'save' | 'remove'>;
  readonly logger: Logger;
}

/**
 * Writes the pool's changes to storage one after another, in the order the pool made them, so
 * that a removal never overtakes the addition it undoes (and the reverse). Removals wait in one
 * queued write that later removals join, until a write starts or an addition is queued.
 */
export class PoolJournal {
  readonly #deps: PoolJournalDeps;
  /** Settles when every write queued so far has. */
  #tail: Promise<void> = Promise.resolve();
  /** Ids of the queued removal that has not started yet. */
  #waitingRemoval: string[] | undefined;

  constructor(deps: PoolJournalDeps) {
    this.#deps = deps;
  }

  /** Adds `added` and forgets `removed` in one commit, after every earlier write; rejects if it failed. */
  record(added: readonly PoolEntry[], removed: readonly string[]): Promise<void> {
    this.#waitingRemoval = undefined;
    const rows = added.map((entry) => ({
      id: entry.id,
      serialized: entry.bytes,
      addedAt: entry.addedAt,
    }));
    return this.#enqueue(() => this.#deps.poolStorage.save(rows, removed));
  }

  /**
   * Forgets `ids` after every earlier write. A failure is logged, not thrown: the rows left
   * behind are judged again at the next boot, and dropped then if no longer valid.
   */
  forget(ids: readonly string[]): void {
    if (ids.length === 0) return;
    if (this.#waitingRemoval) {
      this.#waitingRemoval.push(...ids);
      return;
    }
    const batch = [...ids];
    this.#waitingRemoval = batch;
    void this.#enqueue(() => {
      if (this.#waitingRemoval === batch) this.#waitingRemoval = undefined;
      return this.#deps.poolStorage.remove(batch);
    }).catch((error: unknown) =>
      this.#deps.logger.warn(
        { err: error, transactions: batch.length },
        'Pool transactions not removed from storage; the next start re-checks them',
      ),
    );
  }

  /** Resolves once every write queued so far has settled. */
  flush(): Promise<void> {
    return this.#tail;
  }

  #enqueue(write: () => Promise<void>): Promise<void> {
    const done = this.#tail.then(write);
    this.#tail = done.catch(() => undefined);
    return done;
  }
}
