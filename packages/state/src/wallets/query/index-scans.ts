import {
  after as boundAfter,
  before as boundBefore,
  MISSING,
  type Bound,
  type IndexKey,
} from '../field-index.js';
import { compareAddresses, type WalletField } from '../fields.js';
import type { Wallet } from '../wallet.js';
import type { SortedFieldIndex, WalletStore } from '../wallet-store.js';
import type { CompiledCondition } from './compiled-condition.js';
import type { WalletScope } from './wallet-query.js';
import type { OrderKey } from './wallet-cursor.js';

/**
 * The query engine's reads of the store's sorted indexes: the wallets a page may come from, and
 * the wallets of a scope in an order key's order from a position, skipping by rank where it can.
 */
export class IndexScans {
  readonly #store: WalletStore;

  constructor(store: WalletStore) {
    this.#store = store;
  }

  /** Every wallet the page may hold: the driver's ranges, or the whole scope, in no set order. */
  *candidates(driver: CompiledCondition | undefined, scope: WalletScope): Generator<Wallet> {
    if (driver === undefined) {
      yield* this.#scopeIndex(scope).scan(undefined, undefined, false);
      return;
    }
    for (const [from, to] of driver.ranges) yield* driver.index.scan(from, to, false);
  }

  #scopeIndex(scope: WalletScope): SortedFieldIndex {
    return this.#store.index(scope === 'wallets' ? 'address' : 'attributes.delegate.username');
  }

  /** Wallets of the scope that have no value for the field, by address. */
  *#withoutValue(field: WalletField, scope: WalletScope, descending: boolean): Generator<Wallet> {
    const store = this.#store;
    const inScope = scope === 'wallets' ? store.size : store.delegateCount;
    if (store.index(field).size >= inScope && (scope === 'wallets' || field.delegateOnly)) {
      return;
    }
    if (scope === 'wallets') {
      for (const wallet of store.index('address').scan(undefined, undefined, descending)) {
        if (field.read(wallet) === undefined) yield wallet;
      }
      return;
    }
    const delegates: Wallet[] = [];
    for (const wallet of this.#scopeIndex('delegates').scan(undefined, undefined, false)) {
      if (field.read(wallet) === undefined) delegates.push(wallet);
    }
    const order = descending ? -1 : 1;
    yield* delegates.sort((a, b) => order * compareAddresses(a.address, b.address));
  }

  /**
   * Wallets in the order of the primary key (ties by address in the same direction), from the
   * `skip`th on: indexed entries are skipped by count, wallets without a value one by one.
   */
  *ordered(
    primary: OrderKey,
    condition: CompiledCondition | undefined,
    scope: WalletScope,
    skip: number,
    start?: IndexKey,
  ): Generator<Wallet> {
    const index = this.#store.index(primary.field);
    const descending = primary.descending;
    let left = skip;
    // Entries of a range whose key comes before `start` in the stream's direction, by rank.
    const beforeStart = (from: Bound | undefined, to: Bound | undefined, count: number) => {
      if (start === undefined) return 0;
      if (start === MISSING) return descending ? 0 : count;
      const skipped = descending
        ? (to ? index.rank(to) : index.size) - index.rank(boundAfter(start))
        : index.rank(boundBefore(start)) - (from ? index.rank(from) : 0);
      return Math.max(0, Math.min(count, skipped));
    };
    const present = function* (from: Bound | undefined, to: Bound | undefined) {
      const count = index.count(from, to);
      const skipped = Math.min(
        count,
        Math.max(Math.min(left, count), beforeStart(from, to, count)),
      );
      left -= Math.min(left, count);
      if (skipped < count) yield* index.scan(from, to, descending, skipped);
    };
    if (condition) {
      const ranges = descending ? [...condition.ranges].reverse() : condition.ranges;
      for (const [from, to] of ranges) yield* present(from, to);
      return;
    }
    const missing = function* (wallets: Generator<Wallet>) {
      for (const wallet of wallets) {
        if (left > 0) left -= 1;
        else yield wallet;
      }
    };
    if (descending) {
      // Wallets without a value come first: all of them lie before a cursor that has one.
      if (start === undefined || start === MISSING) {
        yield* missing(this.#withoutValue(primary.field, scope, descending));
      }
      yield* present(undefined, undefined);
    } else {
      yield* present(undefined, undefined);
      yield* missing(this.#withoutValue(primary.field, scope, descending));
    }
  }
}

/**
 * Wallets in the driver's ranges (which hold exactly its matches) that pass the rest: exactly
 * while the ranges hold at most `budget` wallets, else from the first `budget` of them, the
 * share that passes applied to all.
 */
export function countMatches(
  driver: CompiledCondition,
  conditions: readonly CompiledCondition[],
  inScope: (wallet: Wallet) => boolean,
  budget: number,
): { count: number; estimate: boolean } {
  const others = conditions.filter((condition) => condition !== driver);
  const rest = (wallet: Wallet) =>
    inScope(wallet) && others.every((condition) => condition.matches(wallet));
  let count = 0;
  let visited = 0;
  let candidates = 0;
  for (const [from, to] of driver.ranges) {
    const size = driver.index.count(from, to);
    candidates += size;
    const visit = Math.min(size, budget - visited);
    if (visit > 0) count += driver.index.countWhere(from, to, rest, visit);
    visited += Math.max(visit, 0);
  }
  if (visited >= candidates) return { count, estimate: false };
  return { count: Math.round((count / Math.max(visited, 1)) * candidates), estimate: true };
}
