import type {
  Milestones,
  SignerRegistrations,
  TransactionData,
  VerificationPool,
} from '@lni/crypto';
import type { Logger } from '@lni/kernel';
import type { FullBlock } from '../blocks/block-store.js';
import type { ChainListener } from '../blocks/chain-listener.js';
import type { VerifiedTransactions } from '../blocks/verified-transactions.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import { blockCandidates } from './block-candidates.js';
import { PoolAdmission } from './pool-admission.js';
import { PoolAnnouncer, type PoolListener, type PoolOrigin } from './pool-announcer.js';
import type { PoolEntry } from './pool-entry.js';
import { PoolIndex } from './pool-index.js';
import type { PoolJournal } from './pool-journal.js';
import { PoolKeeper } from './pool-keeper.js';
import { PoolLedger } from './pool-ledger.js';
import type { PoolOptions } from './pool-options.js';
import { PoolReconciliation } from './pool-reconciliation.js';
import { PoolIntake } from './pool-intake.js';
import { PoolOperatorRemoval } from './pool-operator-removal.js';
import type { PoolResult } from './pool-rejection.js';
import {
  restoreTransactions,
  type PoolRestoreDeps,
  type RestoreResult,
  type SavedTransaction,
} from './pool-restore.js';

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
}

/**
 * Unconfirmed transactions, ordered by fee per byte for the next block: the index, admission,
 * block candidates, reconciliation with the chain and restore, composed. With a journal, what it
 * accepts is in storage before `add` answers, and what leaves it is removed from storage in the
 * same order. Everything it announces goes through `subscribe`.
 */
export class TransactionPool implements ChainListener, VerifiedTransactions {
  readonly #announcer: PoolAnnouncer;
  readonly #keeper: PoolKeeper;
  readonly #index: PoolIndex;
  readonly #ledger: PoolLedger;
  readonly #reconciliation: PoolReconciliation;
  readonly #intake: PoolIntake;
  readonly #restore: PoolRestoreDeps;
  readonly #removal: PoolOperatorRemoval;

  constructor(deps: TransactionPoolDeps) {
    const { poolOptions: options, logger } = deps;
    const announcer = new PoolAnnouncer();
    const keeper = new PoolKeeper({ logger, journal: deps.journal });
    // What leaves memory leaves storage, and is announced once the operation ends.
    const index = new PoolIndex(options, (entry, reason) => {
      keeper.removed(entry.id);
      announcer.leaving(entry, reason);
    });
    const ledger = new PoolLedger({ ...deps, staticFees: options.staticFees });
    const admission = new PoolAdmission({
      index,
      ledger,
      network: deps.network,
      maxPerSender: options.maxPerSender,
      verificationPool: deps.verificationPool,
    });
    const parts = { index, ledger, keeper, announcer, admission };
    const { maxAgeSeconds, maxPerRequest } = options;
    const reconciliation = new PoolReconciliation({ ...parts, logger, maxAgeSeconds });
    this.#restore = { ...parts, reconciliation, maxAgeSeconds };
    this.#intake = new PoolIntake({ ...parts, reconciliation, logger, maxPerRequest });
    this.#announcer = announcer;
    this.#keeper = keeper;
    this.#index = index;
    this.#ledger = ledger;
    this.#reconciliation = reconciliation;
    this.#removal = new PoolOperatorRemoval({ index, keeper, announcer, logger });
  }

  /** Tells `listener` what the pool takes and what leaves it; returns the unsubscribe. */
  subscribe(listener: PoolListener): () => void {
    return this.#announcer.subscribe(listener);
  }

  get size(): number {
    return this.#index.size;
  }

  get bytes(): number {
    return this.#index.bytes;
  }

  has(id: string): boolean {
    return this.#index.has(id);
  }

  get(id: string): TransactionData | undefined {
    return this.#index.get(id)?.tx;
  }

  /** A sender's pooled transactions in nonce order. */
  bySender(address: string): TransactionData[] {
    return this.#index.senderEntries(address).map((entry) => entry.tx);
  }

  /** Every pooled transaction, best first (fee per byte, then arrival), for listing. */
  all(): TransactionData[] {
    return this.#index.best().map((entry) => entry.tx);
  }

  entries(): IterableIterator<PoolEntry> {
    return this.#index.entries();
  }

  /** The sender's registrations a pooled transaction's signatures were verified under. */
  verifiedUnder(id: string): SignerRegistrations | undefined {
    return this.#index.get(id)?.verifiedUnder;
  }

  /** Judges transactions from hex bytes (peers); malformed ones are refused by index. */
  addSerialized(
    hexes: readonly string[],
    addedAt?: number,
    origin: PoolOrigin = 'submitted',
  ): Promise<PoolResult> {
    return this.#intake.addSerialized(hexes, addedAt, origin);
  }

  /**
   * Judges and adds transactions, in the given order. `addedAt` keeps the arrival time of
   * transactions restored after a restart. With a journal, the accepted ones are in storage
   * when this resolves; if storage fails they are taken out again and refused (`storage`).
   */
  add(
    transactions: readonly TransactionData[],
    addedAt?: number,
    origin: PoolOrigin = 'submitted',
  ): Promise<PoolResult> {
    return this.#intake.add(transactions, addedAt, origin);
  }

  /** See restoreTransactions. */
  restore(
    saved: readonly SavedTransaction[],
    options: { readonly inStorage: boolean },
  ): Promise<RestoreResult> {
    return restoreTransactions(this.#restore, saved, options);
  }

  /** Resolves once every change to the pool so far is in storage (or failed to be). */
  flush(): Promise<void> {
    return this.#keeper.flush();
  }

  /** An operator's removal of `id` and its sender's later transactions; see PoolOperatorRemoval. */
  drop(id: string): Promise<string[]> {
    return this.#removal.drop(id);
  }

  /** An operator's emptying of the pool; resolves with how many it held. */
  dropAll(): Promise<number> {
    return this.#removal.dropAll();
  }

  /** See blockCandidates. */
  collect(): PoolEntry[] {
    return blockCandidates(this.#index, this.#ledger);
  }

  blockApplied(block: FullBlock): void {
    this.#reconciliation.blockApplied(block);
  }

  blocksReverted(blocks: readonly FullBlock[]): Promise<void> {
    return this.#reconciliation.blocksReverted(blocks);
  }

  revalidate(): number {
    return this.#reconciliation.revalidate();
  }
}

export type { PoolListener, PoolOrigin, PoolRemoval } from './pool-announcer.js';
export type { RestoreResult, SavedTransaction } from './pool-restore.js';
