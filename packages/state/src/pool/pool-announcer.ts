import type { PoolEntry } from './pool-entry.js';
import type { PoolOrigin, PoolRemovalReason } from '../contracts/pool.js';

export type { PoolOrigin };

export interface PoolRemoval {
  readonly entry: PoolEntry;
  readonly reason: PoolRemovalReason;
}

/** Told what the pool took and what left it; every announcement goes to every listener. */
export interface PoolListener {
  /** Each batch the pool took something from, once it is stored. */
  added?(entries: readonly PoolEntry[], origin: PoolOrigin): void;
  /**
   * Entries that left the pool, once the operation that removed them ended; not those it took
   * back (a revert judges everything waiting again), nor those never announced as added.
   */
  removed?(removals: readonly PoolRemoval[]): void;
}

/** The pool's one channel: the event bus and p2p both listen here. */
export class PoolAnnouncer {
  readonly #listeners = new Set<PoolListener>();
  /** Entries removed and not yet announced. */
  readonly #leaving = new Map<string, PoolRemoval>();

  /** Returns the unsubscribe. */
  subscribe(listener: PoolListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  added(entries: readonly PoolEntry[], origin: PoolOrigin): void {
    if (entries.length === 0) return;
    for (const listener of this.#listeners) listener.added?.(entries, origin);
  }

  /** Notes an entry that left, to announce when the operation ends. */
  leaving(entry: PoolEntry, reason: PoolRemovalReason): void {
    this.#leaving.set(entry.id, { entry, reason });
  }

  /** An entry that leaves before it was announced as added leaves unannounced. */
  neverAnnounced(id: string): void {
    this.#leaving.delete(id);
  }

  /** Announces the entries that left and did not come back. */
  settle(isPooled: (id: string) => boolean): void {
    if (this.#leaving.size === 0) return;
    const gone = [...this.#leaving.values()].filter(({ entry }) => !isPooled(entry.id));
    this.#leaving.clear();
    if (gone.length === 0) return;
    for (const listener of this.#listeners) listener.removed?.(gone);
  }
}
