import { OrderedSet } from '@js-sdsl/ordered-set';
import {
  addressFromPublicKey,
  deserializeTransaction,
  serializeTransaction,
  transactionId,
  transactionVerificationItems,
  validateTransaction,
  verifyTransactionSignatures,
  type Milestones,
  type SignerRegistrations,
  type TransactionData,
  type VerificationPool,
} from '@lni/crypto';
import { KernelError, type EventBus, type Logger } from '@lni/kernel';
import type { LedgerState } from '../handlers/transaction-handler.js';
import { applyTransaction, checkTransaction, ruleOf } from '../blocks/transaction-steps.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import type { FullBlock } from '../blocks/block-store.js';
import { compareEntries, type PoolEntry } from './pool-entry.js';
import './pool-events.js';
import type { PoolRemovalReason } from './pool-events.js';
import type { PoolJournal } from './pool-journal.js';
import type { PoolOptions } from './pool-options.js';
import type { PoolRejection, PoolResult } from './pool-rejection.js';

export interface TransactionPoolDeps {
  readonly wallets: WalletRepository;
  readonly milestones: Milestones;
  readonly network: { readonly pubKeyHash: number };
  /** The chain's tip; the pool judges for the block after it. */
  readonly tip: () => { readonly height: number; readonly timestamp: number };
  readonly poolOptions: PoolOptions;
  readonly logger: Logger;
  readonly verificationPool?: VerificationPool;
  /** Keeps the pool in storage as it changes; without one it lives in memory only. */
  readonly journal?: PoolJournal;
  /** Unix milliseconds now. */
  readonly clock?: () => number;
  /** Told `transaction.pool.added` and `transaction.pool.removed`. */
  readonly events?: EventBus;
}

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

/**
 * Where transactions come from: `submitted` through the API (passed on to peers), `peer` (p2p
 * passes those on itself, with their hop count), `restored` (kept across a restart, a fork revert).
 */
export type PoolOrigin = 'submitted' | 'peer' | 'restored';

/** Told the serialized bytes of each batch of transactions the pool took. */
export type PoolAcceptedListener = (serialized: readonly Buffer[], origin: PoolOrigin) => void;

/** Room kept in maxPayload for the block header and its signature. */
const HEADER_RESERVE = 256;
/** Transactions judged (and signatures verified) at a time when restoring after a restart. */
const RESTORE_CHUNK = 1_000;

/** An entry the pool just took, with its position in the batch it came in. */
interface Admitted {
  readonly index: number;
  readonly entry: PoolEntry;
}

class Refusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Unconfirmed transactions, judged against state plus the sender's earlier pooled ones (a
 * sender's transactions form a nonce sequence), ordered by fee per byte for the next block.
 * With a journal, what it accepts is in storage before `add` answers, and what leaves it is
 * removed from storage in the same order.
 */
export class TransactionPool {
  readonly #deps: TransactionPoolDeps;
  readonly #byId = new Map<string, PoolEntry>();
  /** Each sender's entries in nonce order. */
  readonly #bySender = new Map<string, PoolEntry[]>();
  #bytes = 0;
  readonly #listeners = new Set<PoolAcceptedListener>();
  /** Ids removed from memory and not yet handed to the journal. */
  readonly #unsaved: string[] = [];
  /**
   * Entries removed and not yet announced, with why: announced once the operation ends, unless
   * it took them back (a revert re-judges everything waiting).
   */
  readonly #leaving = new Map<string, { readonly entry: PoolEntry; reason: PoolRemovalReason }>();

  constructor(deps: TransactionPoolDeps) {
    this.#deps = deps;
  }

  /** Calls `listener` after each batch the pool took something from; returns an unsubscribe. */
  onAccepted(listener: PoolAcceptedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Remembered by @lni/crypto, so repeated senders cost a map lookup. */
  #addressOf(publicKey: string): string {
    return addressFromPublicKey(publicKey, this.#deps.network.pubKeyHash);
  }

  get size(): number {
    return this.#byId.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  get(id: string): TransactionData | undefined {
    return this.#byId.get(id)?.tx;
  }

  /** A sender's pooled transactions in nonce order. */
  bySender(address: string): TransactionData[] {
    return (this.#bySender.get(address) ?? []).map((entry) => entry.tx);
  }

  /** Every pooled transaction, best first (fee per byte, then arrival), for listing. */
  all(): TransactionData[] {
    return [...this.#byId.values()].sort(compareEntries).map((entry) => entry.tx);
  }

  *entries(): Generator<PoolEntry> {
    yield* this.#byId.values();
  }

  /** Judges transactions from hex bytes (peers); malformed ones are refused by index. */
  async addSerialized(
    hexes: readonly string[],
    addedAt?: number,
    origin: PoolOrigin = 'submitted',
  ): Promise<PoolResult> {
    const parsed: (TransactionData | PoolRejection)[] = hexes.map((hex, index) => {
      try {
        return deserializeTransaction(Buffer.from(hex, 'hex'));
      } catch (error) {
        return { index, reason: 'malformed', message: (error as Error).message };
      }
    });
    const valid = parsed.filter((item): item is TransactionData => !('reason' in item));
    const indexes = parsed.flatMap((item, index) => ('reason' in item ? [] : [index]));
    const result = await this.add(valid, addedAt, origin);
    return {
      accepted: result.accepted,
      rejected: [
        ...parsed.filter((item): item is PoolRejection => 'reason' in item),
        ...result.rejected.map((r) => ({ ...r, index: indexes[r.index] as number })),
      ].sort((a, b) => a.index - b.index),
    };
  }

  /**
   * Judges and adds transactions, in the given order. `addedAt` keeps the arrival time of
   * transactions restored after a restart. With a journal, the accepted ones are in storage
   * when this resolves; if storage fails they are taken out again and refused (`storage`).
   */
  async add(
    transactions: readonly TransactionData[],
    addedAt?: number,
    origin: PoolOrigin = 'submitted',
  ): Promise<PoolResult> {
    const { maxPerRequest } = this.#deps.poolOptions;
    const taken = transactions.slice(0, maxPerRequest);
    const excess: PoolRejection[] = transactions.slice(maxPerRequest).map((tx, i) => ({
      index: maxPerRequest + i,
      ...(tx?.id !== undefined && { id: tx.id }),
      reason: 'request.tooMany',
      message: `only ${maxPerRequest} transactions are taken per request`,
    }));
    const now = addedAt ?? this.#now();
    const judged = await this.#judge(taken, () => now);
    const kept = await this.#keep(judged.admitted);
    const rejected = [...judged.rejected, ...excess, ...kept.refused];
    if (rejected.length > 0) {
      this.#deps.logger.debug(
        { accepted: kept.entries.length, rejected: rejected.map((r) => r.reason) },
        'Transactions refused by the pool',
      );
    }
    rejected.sort((a, b) => a.index - b.index);
    this.#announce(kept.entries, origin);
    this.#announceRemoved();
    return { accepted: kept.entries.map((entry) => entry.id), rejected };
  }

  /**
   * Takes back transactions kept from before a restart, in the order given (the order they
   * were accepted in, so each sender's nonces ascend), each with its arrival time, judged
   * again on current state. `inStorage`: they come from the pool's storage, which forgets the
   * ones left out; otherwise those taken back are written to it.
   */
  async restore(
    saved: readonly SavedTransaction[],
    { inStorage }: { readonly inStorage: boolean },
  ): Promise<RestoreResult> {
    const oldest = this.#now() - this.#deps.poolOptions.maxAgeSeconds * 1000;
    const dropped: { id?: string; reason: string }[] = [];
    const candidates: { tx: TransactionData; addedAt: number; id?: string }[] = [];
    for (const item of saved) {
      try {
        const tx = deserializeTransaction(Buffer.from(item.serialized));
        if (item.addedAt < oldest) dropped.push({ id: item.id ?? tx.id, reason: 'expired' });
        else candidates.push({ tx, addedAt: item.addedAt, ...(item.id && { id: item.id }) });
      } catch {
        dropped.push({ ...(item.id && { id: item.id }), reason: 'malformed' });
      }
    }
    let restored = 0;
    for (let start = 0; start < candidates.length; start += RESTORE_CHUNK) {
      const chunk = candidates.slice(start, start + RESTORE_CHUNK);
      const judged = await this.#judge(
        chunk.map((candidate) => candidate.tx),
        (index) => (chunk[index] as { addedAt: number }).addedAt,
      );
      for (const refusal of judged.rejected) {
        dropped.push({ id: chunk[refusal.index]?.id ?? refusal.id, reason: refusal.reason });
      }
      if (inStorage) {
        this.#forgetRemoved();
      } else {
        const kept = await this.#keep(judged.admitted);
        if (kept.refused.length > 0) {
          throw new KernelError(
            'ERR_POOL_STORAGE',
            `the pool's storage did not take restored transactions: ${kept.refused[0]?.message}`,
          );
        }
      }
      restored += judged.admitted.length;
      this.#announce(
        judged.admitted.map((item) => item.entry),
        'restored',
      );
      this.#announceRemoved();
    }
    if (inStorage) {
      this.#deps.journal?.forget(dropped.flatMap((item) => (item.id ? [item.id] : [])));
    }
    return { restored, dropped };
  }

  /** Resolves once every change to the pool so far is in storage (or failed to be). */
  flush(): Promise<void> {
    return this.#deps.journal?.flush() ?? Promise.resolve();
  }

  /**
   * The best transactions for the next block: by fee per byte, each sender's in nonce order,
   * within the milestone's maxTransactions and maxPayload, each one applying on state after
   * the ones before it (checked on a checkpoint that is rolled back).
   */
  collect(): TransactionData[] {
    const ctx = this.#context();
    const { maxTransactions, maxPayload } = ctx.milestone.block;
    const budget = maxPayload - HEADER_RESERVE;
    const candidates = new OrderedSet<PoolEntry>([], compareEntries);
    const next = new Map<string, number>();
    for (const [sender, list] of this.#bySender) {
      candidates.insert(list[0] as PoolEntry);
      next.set(sender, 1);
    }
    const picked: TransactionData[] = [];
    let used = 0;
    const { wallets } = this.#deps;
    const checkpoint = wallets.checkpoint();
    try {
      while (!candidates.empty() && picked.length < maxTransactions) {
        const best = candidates.front() as PoolEntry;
        candidates.eraseElementByKey(best);
        const size = 4 + best.bytes.length;
        // A sender whose next transaction does not fit or apply contributes nothing more.
        if (used + size > budget) continue;
        try {
          applyTransaction(best.tx, best.sender, ctx);
        } catch (error) {
          if (ruleOf(error) === undefined) throw error;
          continue;
        }
        picked.push(best.tx);
        used += size;
        const list = this.#bySender.get(best.sender) as PoolEntry[];
        const position = next.get(best.sender) as number;
        if (position < list.length) {
          candidates.insert(list[position] as PoolEntry);
          next.set(best.sender, position + 1);
        }
      }
    } finally {
      wallets.rollback(checkpoint);
    }
    return picked;
  }

  /** After a block: drops what it included, then whatever no longer applies or is too old. */
  onBlockApplied(block: FullBlock): void {
    for (const tx of block.transactions ?? []) {
      if (tx.id !== undefined && this.#byId.has(tx.id)) {
        this.#remove(this.#byId.get(tx.id)!, 'confirmed');
      }
    }
    this.revalidate();
  }

  /**
   * After a fork revert: the reverted blocks' transactions come back ahead of what was waiting,
   * since they carry each sender's lower nonces, and everything is judged again in that order
   * (waiting ones keep their arrival time). Storage is rewritten in the new order in one commit,
   * so a restart replays each sender's nonces ascending. Signatures were verified when the
   * block, or the pool, took them. The work on memory is done before the first await: reverts
   * announced one block at a time, newest first, end with the oldest block's transactions first.
   */
  async onBlocksReverted(blocks: readonly FullBlock[]): Promise<void> {
    const oldestFirst = [...blocks].sort((a, b) => a.height - b.height);
    const returning = oldestFirst.flatMap((block) => block.transactions ?? []);
    const waiting = [...this.#byId.values()];
    for (const entry of waiting) this.#remove(entry, 'dropped');
    const now = this.#now();
    const transactions = [...returning, ...waiting.map((entry) => entry.tx)];
    const arrivals = [...returning.map(() => now), ...waiting.map((entry) => entry.addedAt)];
    const judged = this.#admitAll(
      transactions,
      (index) => arrivals[index] as number,
      transactions.map(() => true),
    );
    const returned = judged.admitted.filter(({ index }) => index < returning.length);
    const kept = this.#deps.journal
      ?.record(
        judged.admitted.map(({ entry }) => entry),
        this.#unsaved.splice(0),
      )
      .catch((error: unknown) =>
        this.#deps.logger.warn(
          { err: error },
          'Pool not saved after a revert; the next start re-checks what storage holds',
        ),
      );
    this.revalidate();
    const lost = judged.rejected.filter(({ index }) => index >= returning.length).length;
    if (lost > 0) {
      this.#deps.logger.info({ dropped: lost }, 'Pool transactions dropped after a revert');
    }
    await kept;
    this.#announce(
      returned.map(({ entry }) => entry),
      'restored',
    );
  }

  /**
   * Re-judges every sender's sequence on current state and drops, per sender, the first
   * transaction that no longer applies (or is too old) and everything after it.
   */
  revalidate(): number {
    const ctx = this.#context();
    const oldest = this.#now() - this.#deps.poolOptions.maxAgeSeconds * 1000;
    const { wallets, logger } = this.#deps;
    const dropped: PoolEntry[] = [];
    const checkpoint = wallets.checkpoint();
    try {
      for (const list of this.#bySender.values()) {
        let broken = false;
        for (const entry of list) {
          if (!broken) {
            try {
              if (entry.addedAt < oldest) throw new Refusal('expired', 'too old');
              this.#checkExpiration(entry.tx, ctx.height);
              applyTransaction(entry.tx, entry.sender, ctx);
            } catch (error) {
              if (!(error instanceof Refusal) && ruleOf(error) === undefined) throw error;
              broken = true;
            }
          }
          if (broken) dropped.push(entry);
        }
      }
    } finally {
      wallets.rollback(checkpoint);
    }
    for (const entry of dropped) this.#remove(entry, 'dropped');
    this.#forgetRemoved();
    this.#announceRemoved();
    if (dropped.length > 0) logger.info({ dropped: dropped.length }, 'Pool transactions dropped');
    return dropped.length;
  }

  /** Verifies signatures in bulk, then validates and admits one by one in the given order. */
  async #judge(
    transactions: readonly TransactionData[],
    arrivalOf: (index: number) => number,
  ): Promise<{ admitted: Admitted[]; rejected: PoolRejection[] }> {
    const signed = await this.#verifySignatures(transactions);
    return this.#admitAll(transactions, arrivalOf, signed);
  }

  /** Synchronous, so nothing else changes the pool between one admission and the next. */
  #admitAll(
    transactions: readonly TransactionData[],
    arrivalOf: (index: number) => number,
    signed: readonly boolean[],
  ): { admitted: Admitted[]; rejected: PoolRejection[] } {
    const milestone = this.#context().milestone;
    const admitted: Admitted[] = [];
    const rejected: PoolRejection[] = [];
    transactions.forEach((tx, index) => {
      try {
        const validation = validateTransaction(tx, milestone, this.#deps.network);
        if (!validation.ok) {
          const issues = validation.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
          throw new Refusal('invalid', issues);
        }
        if (!signed[index]) throw new Refusal('signature', 'not signed as its sender must sign');
        admitted.push({ index, entry: this.#admit(tx, arrivalOf(index)) });
      } catch (error) {
        const reason = error instanceof Refusal ? error.reason : ruleOf(error);
        if (reason === undefined) throw error;
        rejected.push({
          index,
          ...(tx?.id !== undefined && { id: tx.id }),
          reason,
          message: (error as Error).message,
        });
      }
    });
    return { admitted, rejected };
  }

  /**
   * Writes newly admitted entries, with the removals they caused (evictions), as one commit.
   * The write is queued before the first await, in the same tick as the admission, so storage
   * sees each sender's transactions in the order the pool took them. If it fails, the entries
   * leave the pool again and are refused.
   */
  async #keep(
    admitted: readonly Admitted[],
  ): Promise<{ entries: readonly PoolEntry[]; refused: PoolRejection[] }> {
    const journal = this.#deps.journal;
    const entries = admitted.map((item) => item.entry);
    const removed = this.#unsaved.splice(0);
    if (!journal || (entries.length === 0 && removed.length === 0)) {
      return { entries, refused: [] };
    }
    try {
      await journal.record(entries, removed);
      return { entries, refused: [] };
    } catch (error) {
      this.#deps.logger.error(
        { err: error, transactions: admitted.length },
        'Pool could not keep transactions in storage; refused them',
      );
      journal.forget(removed);
      for (const entry of entries) {
        if (this.#byId.get(entry.id) === entry) this.#remove(entry, 'dropped');
        // Never announced as added: nothing to announce as removed either.
        this.#leaving.delete(entry.id);
      }
      // Later transactions of the same senders may have been taken on top of these.
      this.revalidate();
      const message = `not kept: storage failed (${(error as Error).message})`;
      return {
        entries: [],
        refused: admitted.map(({ index, entry }) => ({
          index,
          id: entry.id,
          reason: 'storage',
          message,
        })),
      };
    }
  }

  #announce(entries: readonly PoolEntry[], origin: PoolOrigin): void {
    if (entries.length === 0) return;
    const serialized = entries.map((entry) => entry.bytes);
    for (const listener of this.#listeners) listener(serialized, origin);
    const events = this.#deps.events;
    for (const entry of entries) {
      events?.emit('transaction.pool.added', { transaction: entry.tx, origin });
    }
  }

  /** Announces the entries that left the pool and did not come back. */
  #announceRemoved(): void {
    const events = this.#deps.events;
    if (!events || this.#leaving.size === 0) return;
    for (const [id, { entry, reason }] of this.#leaving) {
      if (!this.#byId.has(id)) {
        events.emit('transaction.pool.removed', { transaction: entry.tx, reason });
      }
    }
    this.#leaving.clear();
  }

  /** Hands the ids removed from memory since the last write to the journal. */
  #forgetRemoved(): void {
    const removed = this.#unsaved.splice(0);
    this.#deps.journal?.forget(removed);
  }

  #admit(tx: TransactionData, addedAt: number): PoolEntry {
    const ctx = this.#context();
    const bytes = serializeTransaction(tx);
    const id = transactionId(tx);
    if (tx.id !== undefined && tx.id !== id) {
      throw new Refusal('invalid', `id: ${tx.id} is not the hash of the transaction (${id})`);
    }
    if (this.#byId.has(id)) throw new Refusal('duplicate', `${id} is already in the pool`);
    this.#checkExpiration(tx, ctx.height);
    const sender = this.#addressOf(tx.senderPublicKey);
    const pooled = this.#bySender.get(sender) ?? [];
    if (pooled.length >= this.#deps.poolOptions.maxPerSender) {
      throw new Refusal('sender.full', `${sender} has ${pooled.length} transactions pooled`);
    }
    this.#judgeOnState(tx, sender, pooled, ctx);
    const entry: PoolEntry = {
      tx: tx.id === undefined ? { ...tx, id } : tx,
      id,
      sender,
      bytes,
      feePerByte: Number(tx.fee) / bytes.length,
      addedAt,
    };
    this.#makeRoom(entry);
    this.#byId.set(id, entry);
    if (pooled.length === 0) this.#bySender.set(sender, [entry]);
    else pooled.push(entry);
    this.#bytes += bytes.length;
    return entry;
  }

  /** State after the sender's pooled transactions must accept this one. */
  #judgeOnState(
    tx: TransactionData,
    sender: string,
    pooled: readonly PoolEntry[],
    ctx: LedgerState,
  ): void {
    const { wallets } = this.#deps;
    const checkpoint = wallets.checkpoint();
    try {
      for (const entry of pooled) this.#applyPending(entry, ctx);
      checkTransaction(tx, sender, ctx);
    } finally {
      wallets.rollback(checkpoint);
    }
  }

  /**
   * Applies a pooled transaction on state, unless state holds it already: a block being
   * written has moved the wallets before its `block.applied` lets the pool drop what it took,
   * and a transaction arriving in between must be judged after those, not refused.
   */
  #applyPending(entry: PoolEntry, ctx: LedgerState): void {
    const nonce = entry.tx.nonce;
    if (nonce !== undefined) {
      const current = this.#deps.wallets.get(entry.sender)?.nonce ?? 0n;
      if (nonce <= current) return;
    }
    applyTransaction(entry.tx, entry.sender, ctx);
  }

  #checkExpiration(tx: TransactionData, height: number): void {
    if (tx.expiration !== undefined && tx.expiration > 0 && tx.expiration <= height) {
      throw new Refusal('expired', `expiration: height ${tx.expiration} has passed`);
    }
  }

  /** When full, evicts the worst sequence tails that rank below the newcomer, or refuses it. */
  #makeRoom(entry: PoolEntry): void {
    const { maxTransactions, maxBytes } = this.#deps.poolOptions;
    while (this.#byId.size + 1 > maxTransactions || this.#bytes + entry.bytes.length > maxBytes) {
      let worst: PoolEntry | undefined;
      for (const [sender, list] of this.#bySender) {
        if (sender === entry.sender) continue;
        const tail = list[list.length - 1] as PoolEntry;
        if (!worst || compareEntries(tail, worst) > 0) worst = tail;
      }
      if (!worst || compareEntries(entry, worst) >= 0) {
        throw new Refusal(
          'pool.full',
          `the pool is full (${this.#byId.size} transactions, ${this.#bytes} bytes) and the fee is not higher`,
        );
      }
      this.#remove(worst, 'evicted');
    }
  }

  #remove(entry: PoolEntry, reason: PoolRemovalReason): void {
    if (!this.#byId.delete(entry.id)) return;
    if (this.#deps.events) this.#leaving.set(entry.id, { entry, reason });
    this.#unsaved.push(entry.id);
    this.#bytes -= entry.bytes.length;
    const list = this.#bySender.get(entry.sender);
    if (!list) return;
    const rest = list.filter((e) => e !== entry);
    if (rest.length === 0) this.#bySender.delete(entry.sender);
    else this.#bySender.set(entry.sender, rest);
  }

  async #verifySignatures(transactions: readonly TransactionData[]): Promise<boolean[]> {
    const registrations = transactions.map((tx) => this.#registrationsOf(tx));
    const pool = this.#deps.verificationPool;
    if (!pool) {
      return transactions.map((tx, i) => safeVerify(tx, registrations[i] as SignerRegistrations));
    }
    const owners: number[] = [];
    const items = transactions.flatMap((tx, i) => {
      try {
        const list = transactionVerificationItems(tx, registrations[i]);
        for (let k = 0; k < list.length; k++) owners.push(i);
        return list;
      } catch {
        // Malformed signature fields: judged by validation, which refuses them with a reason.
        return [];
      }
    });
    const results = await pool.verify(items);
    const ok = transactions.map(() => true);
    results.forEach((valid, k) => {
      if (!valid) ok[owners[k] as number] = false;
    });
    // A multisignature may pass with some invalid participant signatures, as in ARK.
    return ok.map(
      (valid, i) =>
        valid ||
        safeVerify(transactions[i] as TransactionData, registrations[i] as SignerRegistrations),
    );
  }

  #registrationsOf(tx: TransactionData): SignerRegistrations {
    try {
      const address = this.#addressOf(tx.senderPublicKey);
      const attributes = this.#deps.wallets.get(address)?.attributes;
      return {
        ...(attributes?.secondPublicKey !== undefined && {
          secondPublicKey: attributes.secondPublicKey,
        }),
        ...(attributes?.multiSignature !== undefined && {
          multiSignature: attributes.multiSignature,
        }),
      };
    } catch {
      return {};
    }
  }

  /** State as the next block will see it; signatures were verified in bulk on admission. */
  #context(): LedgerState {
    const tip = this.#deps.tip();
    const height = tip.height + 1;
    return {
      repository: this.#deps.wallets,
      milestone: this.#deps.milestones.at(height),
      height,
      timestamp: tip.timestamp,
      pubKeyHash: this.#deps.network.pubKeyHash,
      enforceStaticFees: this.#deps.poolOptions.staticFees,
      verifySignatures: false,
    };
  }

  #now(): number {
    return this.#deps.clock?.() ?? Date.now();
  }
}

function safeVerify(tx: TransactionData, registrations: SignerRegistrations): boolean {
  try {
    return verifyTransactionSignatures(tx, registrations);
  } catch {
    return false;
  }
}
