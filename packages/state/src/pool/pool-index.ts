import type { PoolEntry } from './pool-entry.js';
import { compareEntries } from './pool-entry.js';
import type { PoolRemovalReason } from '../contracts/pool.js';
import type { PoolOptions } from './pool-options.js';
import { PoolRefusal } from './pool-rejection.js';

/** Told of every entry that leaves the index, as it leaves. */
export type RemovalListener = (entry: PoolEntry, reason: PoolRemovalReason) => void;

/**
 * The pooled entries by id and by sender (each sender's in nonce order, the order they were
 * added in), with the pool's total limits: when full, a better entry evicts the worst tail of
 * another sender. Only this class changes what the pool holds.
 */
export class PoolIndex {
  readonly #limits: Pick<PoolOptions, 'maxTransactions' | 'maxBytes'>;
  readonly #removed: RemovalListener;
  readonly #byId = new Map<string, PoolEntry>();
  readonly #bySender = new Map<string, PoolEntry[]>();
  #bytes = 0;

  constructor(limits: Pick<PoolOptions, 'maxTransactions' | 'maxBytes'>, removed: RemovalListener) {
    this.#limits = limits;
    this.#removed = removed;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Serialized bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  get(id: string): PoolEntry | undefined {
    return this.#byId.get(id);
  }

  /** A sender's entries in nonce order. */
  senderEntries(sender: string): readonly PoolEntry[] {
    return this.#bySender.get(sender) ?? [];
  }

  /** Each sender's entries in nonce order. */
  senders(): IterableIterator<readonly PoolEntry[]> {
    return this.#bySender.values();
  }

  /** Every entry, in the order they were added. */
  entries(): IterableIterator<PoolEntry> {
    return this.#byId.values();
  }

  /** Every entry, best first (see compareEntries). */
  best(): PoolEntry[] {
    return [...this.#byId.values()].sort(compareEntries);
  }

  /**
   * Adds an entry after its sender's others. When the pool is full, evicts the worst sequence
   * tails of other senders that rank below it, or refuses it (`pool.full`) with nothing evicted
   * beyond what it outranks.
   */
  add(entry: PoolEntry): void {
    this.#makeRoom(entry);
    this.#byId.set(entry.id, entry);
    const list = this.#bySender.get(entry.sender);
    if (list) list.push(entry);
    else this.#bySender.set(entry.sender, [entry]);
    this.#bytes += entry.bytes.length;
  }

  remove(entry: PoolEntry, reason: PoolRemovalReason): void {
    if (!this.#byId.delete(entry.id)) return;
    this.#bytes -= entry.bytes.length;
    const list = this.#bySender.get(entry.sender);
    if (list) {
      const rest = list.filter((other) => other !== entry);
      if (rest.length === 0) this.#bySender.delete(entry.sender);
      else this.#bySender.set(entry.sender, rest);
    }
    this.#removed(entry, reason);
  }

  #makeRoom(entry: PoolEntry): void {
    const { maxTransactions, maxBytes } = this.#limits;
    while (this.#byId.size + 1 > maxTransactions || this.#bytes + entry.bytes.length > maxBytes) {
      let worst: PoolEntry | undefined;
      for (const [sender, list] of this.#bySender) {
        if (sender === entry.sender) continue;
        const tail = list[list.length - 1] as PoolEntry;
        if (!worst || compareEntries(tail, worst) > 0) worst = tail;
      }
      if (!worst || compareEntries(entry, worst) >= 0) {
        throw new PoolRefusal(
          'pool.full',
          `the pool is full (${this.#byId.size} transactions, ${this.#bytes} bytes) and the fee is not higher`,
        );
      }
      this.remove(worst, 'evicted');
    }
  }
}
