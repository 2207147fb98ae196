import { WalletError } from './errors.js';
import type { FieldIndex, WalletSlot } from './field-index.js';
import type { WalletField } from './fields.js';
import type { Wallet } from './wallet.js';
import { applyChange, emptyWallet, type WalletChange } from './wallet-change.js';
import { WalletIndexes } from './wallet-indexes.js';
import type { ChangeTracker, Checkpoint, WalletStore } from './wallet-store.js';

export type { Checkpoint } from './wallet-store.js';

interface JournalEntry {
  readonly address: string;
  /** The wallet before the change; undefined when the change created it. */
  readonly previous: Wallet | undefined;
}

/**
 * Every wallet of the ledger in memory, by address, public key and delegate username, with one
 * sorted index per field of WALLET_FIELDS kept current on every change (`WalletIndexes`).
 * Wallets are frozen
 * values: a change replaces the wallet, so a wallet handed out never changes under its holder
 * and a checkpoint restores exactly by putting the earlier values back.
 */
export class WalletRepository implements WalletStore {
  readonly #byAddress = new Map<string, WalletSlot>();
  readonly #byPublicKey = new Map<string, WalletSlot>();
  readonly #byUsername = new Map<string, WalletSlot>();
  readonly #indexes = new WalletIndexes(() => this.#byAddress.values());
  readonly #journal: JournalEntry[] = [];
  #depth = 0;
  /** Addresses changed since each tracker last took them, counting committed changes only. */
  readonly #trackers = new Set<Set<string>>();

  /** Number of wallets held. */
  get size(): number {
    return this.#byAddress.size;
  }

  get inCheckpoint(): boolean {
    return this.#depth > 0;
  }

  /** Number of wallets with delegate attributes, resigned ones included. */
  get delegateCount(): number {
    return this.#byUsername.size;
  }

  get(address: string): Wallet | undefined {
    return this.#byAddress.get(address)?.wallet;
  }

  /** The wallet, or an empty one (not stored) for an address never seen. */
  getOrEmpty(address: string): Wallet {
    return this.get(address) ?? emptyWallet(address);
  }

  has(address: string): boolean {
    return this.#byAddress.has(address);
  }

  byPublicKey(publicKey: string): Wallet | undefined {
    return this.#byPublicKey.get(publicKey)?.wallet;
  }

  byUsername(username: string): Wallet | undefined {
    return this.#byUsername.get(username)?.wallet;
  }

  /** The wallet that the address or public key or username names, in that order. */
  find(id: string): Wallet | undefined {
    return this.get(id) ?? this.byPublicKey(id) ?? this.byUsername(id);
  }

  *all(): Generator<Wallet> {
    for (const slot of this.#byAddress.values()) yield slot.wallet;
  }

  /** The sorted index of a field of WALLET_FIELDS. */
  index(field: WalletField | string): FieldIndex {
    return this.#indexes.get(typeof field === 'string' ? field : field.path);
  }

  /**
   * Stops keeping the indexes of `paths` sorted until the returned function runs, which rebuilds
   * them with one sort. A boot replay changes the balance and nonce of wallets with nearly every
   * transaction; re-sorting those trees of every wallet each time would cost most of the replay.
   */
  deferIndexes(paths: readonly string[]): () => void {
    return this.#indexes.defer(paths);
  }

  /** Indexes a `load` with `indexes: 'later'` has not built yet. */
  get pendingIndexes(): number {
    return this.#indexes.pendingCount;
  }

  /**
   * Builds one index a lazy `load` left pending (the next in WALLET_FIELDS' order); returns
   * whether one was built. Called a few at a time after boot so that no single turn of the
   * event loop sorts every index.
   */
  buildPendingIndex(): boolean {
    return this.#indexes.buildNextPending();
  }

  /**
   * Changes a wallet (creating it when the address is unknown) and re-indexes the fields whose
   * value changed. `change` may be a function of the current wallet. Returns the new wallet.
   */
  update(address: string, change: WalletChange | ((wallet: Wallet) => WalletChange)): Wallet {
    const slot = this.#byAddress.get(address);
    const previous = slot?.wallet ?? emptyWallet(address);
    const next = applyChange(previous, typeof change === 'function' ? change(previous) : change);
    this.#checkUnique(previous, next);
    if (this.#depth > 0) this.#journal.push({ address, previous: slot?.wallet });
    else this.#committed(address);
    if (slot) this.#replace(slot, next);
    else this.#insert(next);
    return next;
  }

  /**
   * Starts recording which wallets change, for a copy kept elsewhere (the off-thread query
   * replica): `take` returns the addresses changed since the last take, each once. Only
   * committed changes count: those inside a checkpoint count when the outermost one is
   * released, and a rollback leaves nothing to copy. `stop` ends the recording.
   */
  trackChanges(): ChangeTracker {
    let changed = new Set<string>();
    this.#trackers.add(changed);
    return {
      take: () => {
        this.#trackers.delete(changed);
        const taken = [...changed];
        changed = new Set<string>();
        this.#trackers.add(changed);
        return taken;
      },
      stop: () => {
        this.#trackers.delete(changed);
      },
    };
  }

  /**
   * Makes each wallet what another repository holds now (a replica catching up with its
   * source): `wallet` undefined removes it. The source checked every rule, uniqueness
   * included, so none is checked again; public keys and usernames are moved in two passes,
   * so a key that changed hands within one batch ends up with its new holder whatever the
   * entries' order. Never inside a checkpoint: a replica has none.
   */
  mirror(entries: Iterable<readonly [address: string, wallet: Wallet | undefined]>): void {
    if (this.#depth > 0) {
      throw new WalletError('ERR_WALLET_CHECKPOINT', 'mirror: a checkpoint is open');
    }
    const moved: { slot: WalletSlot; previous?: Wallet; next?: Wallet }[] = [];
    for (const [address, next] of entries) {
      const slot = this.#byAddress.get(address);
      if (slot === undefined) {
        if (next === undefined) continue;
        const fresh: WalletSlot = { wallet: next };
        this.#byAddress.set(address, fresh);
        this.#indexes.add(fresh);
        moved.push({ slot: fresh, next });
      } else if (next === undefined) {
        this.#indexes.remove(slot);
        this.#byAddress.delete(address);
        moved.push({ slot, previous: slot.wallet });
      } else {
        const previous = slot.wallet;
        this.#indexes.replace(slot, next);
        moved.push({ slot, previous, next });
      }
      this.#committed(address);
    }
    for (const { slot, previous } of moved) this.#dropKeys(slot, previous);
    for (const { slot, next } of moved) this.#addKeys(slot, next);
  }

  /**
   * Adds many new wallets at once, as a boot rebuild does: each index is filled in sorted order.
   * All wallets are validated (unknown address,
   * unique public keys and usernames) before any is added, so a refusal adds nothing.
   * `indexes: 'later'` (a loaded boot) leaves the sorted indexes to be built on first use or by
   * buildPendingIndex, once the node answers: sorting every index of every wallet is most of
   * a load's time.
   */
  load(
    wallets: Iterable<{ readonly address: string } & WalletChange>,
    options: { readonly indexes: 'now' | 'later' } = { indexes: 'now' },
  ): void {
    const slots: WalletSlot[] = [];
    const addresses = new Set<string>();
    const publicKeys = new Map<string, string>();
    const usernames = new Map<string, string>();
    const duplicate = (
      code:
        'ERR_WALLET_EXISTS' | 'ERR_WALLET_DUPLICATE_PUBLIC_KEY' | 'ERR_WALLET_DUPLICATE_USERNAME',
      what: string,
      address: string,
    ) => new WalletError(code, `${what}: already held (${address})`, { address });
    for (const change of wallets) {
      // `change` is read for its parts only: no copy without the address (an object rest per
      // wallet is a large share of a load).
      const { address } = change;
      if (this.#byAddress.has(address) || addresses.has(address)) {
        throw duplicate('ERR_WALLET_EXISTS', 'address', address);
      }
      const wallet = applyChange(emptyWallet(address), change);
      const { publicKey } = wallet;
      if (publicKey !== undefined) {
        if (this.#byPublicKey.has(publicKey) || publicKeys.has(publicKey)) {
          throw duplicate('ERR_WALLET_DUPLICATE_PUBLIC_KEY', 'publicKey', address);
        }
        publicKeys.set(publicKey, address);
      }
      const username = wallet.attributes.delegate?.username;
      if (username !== undefined) {
        if (this.#byUsername.has(username) || usernames.has(username)) {
          throw duplicate('ERR_WALLET_DUPLICATE_USERNAME', 'attributes.delegate.username', address);
        }
        usernames.set(username, address);
      }
      addresses.add(address);
      slots.push({ wallet });
    }
    if (this.#depth > 0) {
      for (const { wallet } of slots)
        this.#journal.push({ address: wallet.address, previous: undefined });
    }
    for (const slot of slots) {
      this.#byAddress.set(slot.wallet.address, slot);
      this.#setKeys(slot, undefined, slot.wallet);
      if (this.#depth === 0) this.#committed(slot.wallet.address);
    }
    this.#indexes.addAll(slots, options.indexes);
  }

  /** Opens a checkpoint: every change after it can be undone with `rollback`. */
  checkpoint(): Checkpoint {
    this.#depth += 1;
    return { depth: this.#depth, mark: this.#journal.length };
  }

  /** Undoes every change since the checkpoint, newest first, and closes it. */
  rollback(checkpoint: Checkpoint): void {
    this.#close(checkpoint);
    while (this.#journal.length > checkpoint.mark) {
      const { address, previous } = this.#journal.pop() as JournalEntry;
      const slot = this.#byAddress.get(address) as WalletSlot;
      if (previous) this.#replace(slot, previous);
      else this.#delete(slot);
    }
    if (this.#depth === 0) this.#journal.length = 0;
  }

  /**
   * The addresses changed since the checkpoint (it must still be open), each once: what a block
   * changed, for the subscribers to wallets.
   */
  changedSince(checkpoint: Checkpoint): string[] {
    const addresses = new Set<string>();
    for (let i = checkpoint.mark; i < this.#journal.length; i++) {
      addresses.add((this.#journal[i] as JournalEntry).address);
    }
    return [...addresses];
  }

  /** Keeps the changes since the checkpoint and closes it (an outer checkpoint can still undo them). */
  release(checkpoint: Checkpoint): void {
    this.#close(checkpoint);
    if (this.#depth > 0) return;
    if (this.#trackers.size > 0) {
      for (const { address } of this.#journal) this.#committed(address);
    }
    this.#journal.length = 0;
  }

  #committed(address: string): void {
    for (const changed of this.#trackers) changed.add(address);
  }

  #close(checkpoint: Checkpoint): void {
    if (checkpoint.depth !== this.#depth || checkpoint.mark > this.#journal.length) {
      throw new WalletError(
        'ERR_WALLET_CHECKPOINT',
        `checkpoint ${checkpoint.depth} is not the innermost open one (${this.#depth})`,
      );
    }
    this.#depth -= 1;
  }

  #checkUnique(previous: Wallet, next: Wallet): void {
    if (next.publicKey !== undefined && next.publicKey !== previous.publicKey) {
      const holder = this.#byPublicKey.get(next.publicKey);
      if (holder && holder.wallet.address !== next.address) {
        throw new WalletError(
          'ERR_WALLET_DUPLICATE_PUBLIC_KEY',
          `publicKey: already held by ${holder.wallet.address}`,
          { address: next.address, holder: holder.wallet.address },
        );
      }
    }
    const username = next.attributes.delegate?.username;
    if (username !== undefined && username !== previous.attributes.delegate?.username) {
      const holder = this.#byUsername.get(username);
      if (holder && holder.wallet.address !== next.address) {
        throw new WalletError(
          'ERR_WALLET_DUPLICATE_USERNAME',
          `attributes.delegate.username: '${username}' is taken by ${holder.wallet.address}`,
          { address: next.address, holder: holder.wallet.address },
        );
      }
    }
  }

  #insert(wallet: Wallet): void {
    const slot: WalletSlot = { wallet };
    this.#byAddress.set(wallet.address, slot);
    this.#setKeys(slot, undefined, wallet);
    this.#indexes.add(slot);
  }

  #delete(slot: WalletSlot): void {
    const wallet = slot.wallet;
    this.#indexes.remove(slot);
    this.#setKeys(slot, wallet, undefined);
    this.#byAddress.delete(wallet.address);
  }

  #replace(slot: WalletSlot, next: Wallet): void {
    const previous = slot.wallet;
    this.#indexes.replace(slot, next);
    this.#setKeys(slot, previous, next);
  }

  /** Forgets the keys `previous` had, where they still name this slot. */
  #dropKeys(slot: WalletSlot, previous: Wallet | undefined): void {
    const key = previous?.publicKey;
    if (key !== undefined && this.#byPublicKey.get(key) === slot) this.#byPublicKey.delete(key);
    const name = previous?.attributes.delegate?.username;
    if (name !== undefined && this.#byUsername.get(name) === slot) this.#byUsername.delete(name);
  }

  #addKeys(slot: WalletSlot, next: Wallet | undefined): void {
    if (next?.publicKey !== undefined) this.#byPublicKey.set(next.publicKey, slot);
    const name = next?.attributes.delegate?.username;
    if (name !== undefined) this.#byUsername.set(name, slot);
  }

  #setKeys(slot: WalletSlot, previous: Wallet | undefined, next: Wallet | undefined): void {
    const oldKey = previous?.publicKey;
    const newKey = next?.publicKey;
    if (oldKey !== newKey) {
      if (oldKey !== undefined) this.#byPublicKey.delete(oldKey);
      if (newKey !== undefined) this.#byPublicKey.set(newKey, slot);
    }
    const oldName = previous?.attributes.delegate?.username;
    const newName = next?.attributes.delegate?.username;
    if (oldName !== newName) {
      if (oldName !== undefined) this.#byUsername.delete(oldName);
      if (newName !== undefined) this.#byUsername.set(newName, slot);
    }
  }
}
