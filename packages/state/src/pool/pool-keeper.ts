import type { Logger } from '@lni/kernel';
import type { PoolEntry } from './pool-entry.js';
import type { PoolJournal } from './pool-journal.js';

/**
 * Keeps storage in step with the pool through its journal, in the order the pool changed:
 * removals are handed on with the next batch written, or on their own. Without a journal the
 * pool lives in memory only and this does nothing.
 */
export class PoolKeeper {
  readonly #journal: PoolJournal | undefined;
  readonly #logger: Logger;
  /** Ids removed from memory and not yet handed to the journal. */
  readonly #unsaved: string[] = [];

  constructor({ journal, logger }: { readonly journal?: PoolJournal; readonly logger: Logger }) {
    this.#journal = journal;
    this.#logger = logger;
  }

  /** Notes an entry that left the pool. */
  removed(id: string): void {
    if (this.#journal) this.#unsaved.push(id);
  }

  /**
   * Writes newly admitted entries with the removals before them as one commit. The write is
   * queued at the call, so storage sees each sender's transactions in the order the pool took
   * them. Rejects when storage did not take it.
   */
  async keep(entries: readonly PoolEntry[]): Promise<void> {
    const journal = this.#journal;
    const removed = this.#unsaved.splice(0);
    if (!journal || (entries.length === 0 && removed.length === 0)) return;
    try {
      await journal.record(entries, removed);
    } catch (error) {
      journal.forget(removed);
      throw error;
    }
  }

  /** Hands the removals noted so far to the journal. */
  forgetRemoved(): void {
    this.forget(this.#unsaved.splice(0));
  }

  forget(ids: readonly string[]): void {
    this.#journal?.forget(ids);
  }

  /**
   * After a revert: the removals, then every entry in the pool's new order, as one commit. A
   * failure is logged: the next start judges again whatever storage holds.
   */
  async rewrite(entries: readonly PoolEntry[]): Promise<void> {
    const removed = this.#unsaved.splice(0);
    try {
      await this.#journal?.record(entries, removed);
    } catch (error) {
      this.#logger.warn(
        { err: error },
        'Pool not saved after a revert; the next start re-checks what storage holds',
      );
    }
  }

  /** Resolves once every change so far is in storage (or failed to be). */
  flush(): Promise<void> {
    return this.#journal?.flush() ?? Promise.resolve();
  }
}
