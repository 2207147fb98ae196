import { OrderedSet } from '@js-sdsl/ordered-set';
import {
  compareAddresses,
  compareFieldValues,
  type FieldValue,
  type WalletField,
} from './fields.js';
import type { Wallet } from './wallet.js';
import type { SortedFieldIndex } from './wallet-store.js';

/**
 * The repository's handle on one wallet. Every index holds the slot, not the wallet, so that
 * replacing the (immutable) wallet re-sorts only the indexes whose field changed.
 */
export interface WalletSlot {
  wallet: Wallet;
}

/** A wallet without a value for the field; sorts after every value (PostgreSQL's NULLS LAST). */
// Typed `symbol`, not `unique symbol`, so index types stay structural (see wallet-store.ts).
export const MISSING: symbol = Symbol('missing');
export type IndexKey = FieldValue | symbol;

/** A search key: sits just before (-1) or just after (+1) every entry whose value equals `key`. */
export interface Bound {
  readonly wallet: undefined;
  readonly key: IndexKey;
  readonly edge: -1 | 1;
}

type Entry = WalletSlot | Bound;

export const before = (key: IndexKey): Bound => ({ wallet: undefined, key, edge: -1 });
export const after = (key: IndexKey): Bound => ({ wallet: undefined, key, edge: 1 });

export function compareKeys(a: IndexKey, b: IndexKey): number {
  if (a === MISSING) return b === MISSING ? 0 : 1;
  if (b === MISSING) return -1;
  return compareFieldValues(a as FieldValue, b as FieldValue);
}

/**
 * The wallets that have a value for one field, in (value, address) order, with the rank of any position in O(log n)
 * (js-sdsl's red-black tree with subtree sizes), so that counts of a value or a range are exact
 * without visiting the entries.
 */
export class FieldIndex implements SortedFieldIndex {
  readonly #set: OrderedSet<Entry>;

  constructor(readonly field: WalletField) {
    const keyOf = (entry: Entry): IndexKey =>
      entry.wallet === undefined ? entry.key : (field.read(entry.wallet) ?? MISSING);
    const compare = (a: Entry, b: Entry): number => {
      const order = compareKeys(keyOf(a), keyOf(b));
      if (order !== 0) return order;
      if (a.wallet === undefined) return a.edge;
      if (b.wallet === undefined) return -b.edge;
      return compareAddresses(a.wallet.address, b.wallet.address);
    };
    this.#set = new OrderedSet<Entry>([], compare, true);
    this.compareSlots = compare;
  }

  /** The index's order of two wallets (for sorting a batch before inserting it). */
  readonly compareSlots: (a: WalletSlot, b: WalletSlot) => number;

  get size(): number {
    return this.#set.size();
  }

  /** Adds the slot as its wallet is now. */
  insert(slot: WalletSlot): void {
    this.#set.insert(slot);
  }

  /** Empties the index (before it is filled again in sorted order). */
  clear(): void {
    this.#set.clear();
  }

  /** Removes the slot; its wallet must still be the one it was inserted with. */
  remove(slot: WalletSlot): void {
    this.#set.eraseElementByKey(slot);
  }

  /** Number of entries before the bound. */
  rank(bound: Bound): number {
    const iterator = this.#set.lowerBound(bound);
    return iterator.isAccessible() ? iterator.index : this.size;
  }

  /** Number of entries between two bounds (either may be open). */
  count(from?: Bound, to?: Bound): number {
    return (to ? this.rank(to) : this.size) - (from ? this.rank(from) : 0);
  }

  /**
   * How many wallets strictly between the bounds (the first `atMost` of them) pass `test`: one
   * plain pass over the tree, several times faster than counting through `scan`'s generator.
   */
  countWhere(
    from: Bound | undefined,
    to: Bound | undefined,
    test: (wallet: Wallet) => boolean,
    atMost = Number.POSITIVE_INFINITY,
  ): number {
    let remaining = Math.min(this.count(from, to), atMost);
    let passed = 0;
    if (remaining <= 0) return passed;
    const it = from ? this.#set.lowerBound(from) : this.#set.begin();
    for (; remaining > 0; remaining -= 1, it.next()) {
      if (test((it.pointer as WalletSlot).wallet)) passed += 1;
    }
    return passed;
  }

  /**
   * Wallets strictly between the bounds, ascending or descending, after the first `skip` of
   * them (passed over in a plain loop: a deep page does not pay a generator step per entry).
   */
  *scan(
    from: Bound | undefined,
    to: Bound | undefined,
    descending: boolean,
    skip = 0,
  ): Generator<Wallet> {
    // Ranks say how many entries lie between the bounds, so the walk needs no comparisons.
    let remaining = this.count(from, to) - skip;
    if (remaining <= 0) return;
    if (!descending) {
      const it = this.#at((from ? this.rank(from) : 0) + skip);
      for (; remaining > 0; remaining -= 1, it.next()) yield (it.pointer as WalletSlot).wallet;
      return;
    }
    // A forward iterator walked back with pre(), never past the first entry (where pre() would
    // throw; `remaining` ends the walk before it).
    const it = this.#at((to ? this.rank(to) : this.size) - 1 - skip);
    for (;;) {
      yield (it.pointer as WalletSlot).wallet;
      remaining -= 1;
      if (remaining === 0) return;
      it.pre();
    }
  }

  /**
   * An iterator at the entry of rank `rank` (which exists), found by descending the tree by
   * subtree sizes: O(log n), so that a deep page costs what the first does. js-sdsl offers
   * select-by-rank only as an in-order walk (getElementByPos, O(n)); its tree keeps the sizes
   * (enableIndex), read here from its nodes (root `A`, children `i`/`h`, size `g`, key `u`).
   * Should a release rename them, the walk from the first entry gives the same answer.
   */
  #at(rank: number) {
    const set = this.#set;
    let node = (set as unknown as { A?: TreeNode }).A;
    let left = rank;
    while (node !== undefined && typeof node.g === 'number') {
      const before = node.i?.g ?? 0;
      if (left < before) node = node.i;
      else if (left === before) return set.find(node.u);
      else {
        left -= before + 1;
        node = node.h;
      }
    }
    const it = set.begin();
    for (let n = 0; n < rank; n += 1) it.next();
    return it;
  }
}

/** What `#at` reads of js-sdsl's tree nodes (see there). */
interface TreeNode {
  readonly i?: TreeNode;
  readonly h?: TreeNode;
  readonly g?: number;
  readonly u: Entry;
}
