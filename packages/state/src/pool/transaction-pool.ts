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
import type { Logger } from '@lni/kernel';
import type { LedgerState } from '../handlers/transaction-handler.js';
import { applyTransaction, checkTransaction, ruleOf } from '../blocks/transaction-steps.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import type { FullBlock } from '../blocks/block-store.js';
import { compareEntries, type PoolEntry } from './pool-entry.js';
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
  /** Unix milliseconds now. */
  readonly clock?: () => number;
}

/**
 * Where transactions come from: `submitted` through the API (passed on to peers), `peer` (p2p
 * passes those on itself, with their hop count), `restored` (the pool file, a fork revert).
 */
export type PoolOrigin = 'submitted' | 'peer' | 'restored';

/** Told the serialized bytes of each batch of transactions the pool took. */
export type PoolAcceptedListener = (serialized: readonly Buffer[], origin: PoolOrigin) => void;

/** Room kept in maxPayload for the block header and its signature. */
const HEADER_RESERVE = 256;

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
 */
export class TransactionPool {
  readonly #deps: TransactionPoolDeps;
  readonly #byId = new Map<string, PoolEntry>();
  /** Each sender's entries in nonce order. */
  readonly #bySender = new Map<string, PoolEntry[]>();
  #bytes = 0;
  readonly #listeners = new Set<PoolAcceptedListener>();

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
   * transactions restored after a restart.
   */
  async add(
    transactions: readonly TransactionData[],
    addedAt?: number,
    origin: PoolOrigin = 'submitted',
  ): Promise<PoolResult> {
    const { maxPerRequest } = this.#deps.poolOptions;
    const accepted: string[] = [];
    const acceptedBytes: Buffer[] = [];
    const rejected: PoolRejection[] = [];
    const taken = transactions.slice(0, maxPerRequest);
    transactions.slice(maxPerRequest).forEach((tx, i) =>
      rejected.push({
        index: maxPerRequest + i,
        ...(tx?.id !== undefined && { id: tx.id }),
        reason: 'request.tooMany',
        message: `only ${maxPerRequest} transactions are taken per request`,
      }),
    );
    const milestone = this.#context().milestone;
    const invalid = taken.map((tx) => {
      const validation = validateTransaction(tx, milestone, this.#deps.network);
      return validation.ok
        ? undefined
        : validation.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    });
    const signed = await this.#verifySignatures(taken);
    const now = addedAt ?? this.#now();
    taken.forEach((tx, index) => {
      try {
        const issues = invalid[index];
        if (issues !== undefined) throw new Refusal('invalid', issues);
        if (!signed[index]) throw new Refusal('signature', 'not signed as its sender must sign');
        const entry = this.#admit(tx, now);
        accepted.push(entry.id);
        acceptedBytes.push(entry.bytes);
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
    if (rejected.length > 0) {
      this.#deps.logger.debug(
        { accepted: accepted.length, rejected: rejected.map((r) => r.reason) },
        'Transactions refused by the pool',
      );
    }
    rejected.sort((a, b) => a.index - b.index);
    if (acceptedBytes.length > 0) {
      for (const listener of this.#listeners) listener(acceptedBytes, origin);
    }
    return { accepted, rejected };
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
      if (tx.id !== undefined && this.#byId.has(tx.id)) this.#remove(this.#byId.get(tx.id)!);
    }
    this.revalidate();
  }

  /** After a fork revert: the reverted blocks' transactions come back, then all are re-judged. */
  async onBlocksReverted(blocks: readonly FullBlock[]): Promise<void> {
    const oldestFirst = [...blocks].sort((a, b) => a.height - b.height);
    const transactions = oldestFirst.flatMap((block) => block.transactions ?? []);
    this.revalidate();
    for (let i = 0; i < transactions.length; i += this.#deps.poolOptions.maxPerRequest) {
      await this.add(
        transactions.slice(i, i + this.#deps.poolOptions.maxPerRequest),
        undefined,
        'restored',
      );
    }
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
    for (const entry of dropped) this.#remove(entry);
    if (dropped.length > 0) logger.info({ dropped: dropped.length }, 'Pool transactions dropped');
    return dropped.length;
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
      for (const entry of pooled) applyTransaction(entry.tx, entry.sender, ctx);
      checkTransaction(tx, sender, ctx);
    } finally {
      wallets.rollback(checkpoint);
    }
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
      this.#remove(worst);
    }
  }

  #remove(entry: PoolEntry): void {
    if (!this.#byId.delete(entry.id)) return;
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
