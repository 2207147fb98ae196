import { WalletError } from './errors.js';
import { FieldIndex, type WalletSlot } from './field-index.js';
import { WALLET_FIELDS, type WalletPart } from './fields.js';
import type { Wallet } from './wallet.js';

/**
 * One sorted index per field of WALLET_FIELDS over the repository's wallet slots, kept current
 * on every change, except indexes deferred for a while (a boot replay) or left pending by a
 * lazy load (built on first use, or a few at a time once the node answers).
 */
export class WalletIndexes {
  readonly #byPath = new Map<string, FieldIndex>();
  readonly #all: FieldIndex[] = [];
  /** The indexes grouped by the wallet part their field reads: a part unchanged skips them all. */
  readonly #byPart: {
    readonly partOf: (wallet: Wallet) => unknown;
    readonly part: WalletPart;
    readonly indexes: FieldIndex[];
  }[] = [];
  /** Indexes not kept sorted for now; a deferral's resume, or building a pending one, refills them. */
  readonly #deferred = new Set<FieldIndex>();
  /** Deferred indexes a lazy load left unbuilt. */
  readonly #pending = new Set<FieldIndex>();

  /** `slots` gives every slot the repository holds, to fill an index from. */
  constructor(private readonly slots: () => Iterable<WalletSlot>) {
    for (const field of WALLET_FIELDS) {
      const index = new FieldIndex(field);
      this.#byPath.set(field.path, index);
      this.#all.push(index);
      const group = this.#byPart.find((candidate) => candidate.part === field.part);
      if (group) group.indexes.push(index);
      else
        this.#byPart.push({ part: field.part, partOf: partReader(field.part), indexes: [index] });
    }
  }

  /** The sorted index of a field's path; a pending one is built first. */
  get(path: string): FieldIndex {
    const index = this.#byPath.get(path);
    if (!index) throw new WalletError('ERR_WALLET_INVALID_VALUE', `${path}: not an indexed field`);
    if (this.#pending.has(index)) this.#build(index);
    if (this.#deferred.has(index)) {
      throw new WalletError('ERR_WALLET_INDEX_DEFERRED', `${path}: index deferred until resumed`);
    }
    return index;
  }

  /** Stops keeping the indexes of `paths` sorted until the returned function refills them. */
  defer(paths: readonly string[]): () => void {
    const indexes = paths.map((path) => this.get(path));
    for (const index of indexes) this.#deferred.add(index);
    return () => {
      for (const index of indexes) {
        if (this.#deferred.delete(index)) refill(index, this.slots());
      }
    };
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Builds the next pending index, in WALLET_FIELDS' order; whether there was one. */
  buildNextPending(): boolean {
    const [next] = this.#pending;
    if (!next) return false;
    this.#build(next);
    return true;
  }

  /**
   * Indexes slots newly added in bulk: each index filled in sorted order, which its tree appends
   * without searching; or, `later`, every index left pending (sorting every index of every
   * wallet is most of a loaded boot's time).
   */
  addAll(slots: readonly WalletSlot[], when: 'now' | 'later'): void {
    for (const index of this.#all) {
      if (this.#deferred.has(index)) continue;
      if (when === 'now') fillSorted(index, slots);
      else {
        this.#deferred.add(index);
        this.#pending.add(index);
      }
    }
  }

  /** Adds the slot to every index its wallet has a value for. */
  add(slot: WalletSlot): void {
    this.#each(slot, 'insert');
  }

  /** Takes the slot out of every index its wallet has a value for. */
  remove(slot: WalletSlot): void {
    this.#each(slot, 'remove');
  }

  /**
   * Puts `next` in the slot, re-sorting only the fields whose value changed (an index holds only
   * wallets with a value).
   */
  replace(slot: WalletSlot, next: Wallet): void {
    const previous = slot.wallet;
    const stale: FieldIndex[] = [];
    const fresh: FieldIndex[] = [];
    for (const { partOf, indexes } of this.#byPart) {
      if (partOf(previous) === partOf(next)) continue;
      for (const index of indexes) {
        if (this.#deferred.has(index)) continue;
        const before = index.field.read(previous);
        const after = index.field.read(next);
        if (before === after) continue;
        if (before !== undefined) stale.push(index);
        if (after !== undefined) fresh.push(index);
      }
    }
    for (const index of stale) index.remove(slot);
    slot.wallet = next;
    for (const index of fresh) index.insert(slot);
  }

  #each(slot: WalletSlot, action: 'insert' | 'remove'): void {
    for (const index of this.#all) {
      if (index.field.read(slot.wallet) !== undefined && !this.#deferred.has(index)) {
        index[action](slot);
      }
    }
  }

  #build(index: FieldIndex): void {
    this.#pending.delete(index);
    this.#deferred.delete(index);
    refill(index, this.slots());
  }
}

function refill(index: FieldIndex, slots: Iterable<WalletSlot>): void {
  index.clear();
  fillSorted(index, slots);
}

/** Inserts the slots that have a value for the index's field in its order, which the tree appends. */
function fillSorted(index: FieldIndex, slots: Iterable<WalletSlot>): void {
  const read = index.field.read;
  const present = [...slots].filter((slot) => read(slot.wallet) !== undefined);
  present.sort(index.compareSlots);
  for (const slot of present) index.insert(slot);
}

const TOP_LEVEL = new Set<WalletPart>(['address', 'publicKey', 'balance', 'nonce']);

/** Reads the part of a wallet a field reads; unchanged by reference means the field is unchanged. */
function partReader(part: WalletPart): (wallet: Wallet) => unknown {
  if (TOP_LEVEL.has(part)) {
    const key = part as 'address' | 'publicKey' | 'balance' | 'nonce';
    return (wallet) => wallet[key];
  }
  const attribute = part as keyof Wallet['attributes'];
  return (wallet) => wallet.attributes[attribute];
}
