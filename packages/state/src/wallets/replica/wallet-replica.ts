import { Worker } from 'node:worker_threads';
import { WalletQueryBusyError, WalletQueryError } from '../errors.js';
import type { WalletPage, WalletQuery, WalletScope } from '../query/wallet-query.js';
import type { Wallet } from '../wallet.js';
import type { ChangeTracker, WalletStore } from '../wallet-store.js';
import type { ReplicaRequest, ReplicaResponse } from './replica-protocol.js';
import { assertReplicaWorkerExists, replicaWorkerUrl } from './worker-location.js';

/** Wallets per message while the replica is filled, so no one message holds the thread long. */
const LOAD_CHUNK = 10_000;

export interface WalletReplicaOptions {
  /** Queries waiting in the replica beyond this are refused at once (busy) instead of queued. */
  readonly maxQueued?: number;
  /** Changes are copied at least this often, besides before every query. */
  readonly flushIntervalMs?: number;
  readonly workerUrl?: URL;
}

interface Pending {
  readonly resolve: (page: WalletPage) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A copy of the wallet repository in a worker thread, with its own indexes and query engine,
 * for the queries whose cost grows with the data. The node's thread only copies the wallets
 * that changed (committed changes, before each query and every `flushIntervalMs`) and the
 * answers' wallets. A query sees the state the node had when it was asked: every change
 * copied before it is applied first. The worker starts with the first query, filled from the
 * repository in chunks; if it dies, the queries it held fail as busy and the next query
 * starts a fresh one.
 */
export class WalletReplica {
  readonly #source: WalletStore;
  readonly #maxQueued: number;
  readonly #flushIntervalMs: number;
  readonly #workerUrl: URL;
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | undefined;
  #tracker: ChangeTracker | undefined;
  #flushTimer: NodeJS.Timeout | undefined;
  #nextId = 0;
  #closed = false;

  constructor(source: WalletStore, options: WalletReplicaOptions = {}) {
    this.#source = source;
    this.#maxQueued = options.maxQueued ?? 64;
    this.#flushIntervalMs = options.flushIntervalMs ?? 1_000;
    this.#workerUrl = options.workerUrl ?? replicaWorkerUrl();
    assertReplicaWorkerExists(this.#workerUrl);
  }

  /** Queries sent and not answered yet. */
  get queued(): number {
    return this.#pending.size;
  }

  /** Answers the query in the worker, or fails busy once `deadline` (epoch ms) has passed. */
  query(scope: WalletScope, query: WalletQuery, deadline: number): Promise<WalletPage> {
    if (this.#closed) return Promise.reject(new WalletQueryBusyError('wallet replica closed'));
    if (this.#pending.size >= this.#maxQueued) {
      return Promise.reject(
        new WalletQueryBusyError(`${this.#pending.size} costly wallet queries are waiting`),
      );
    }
    const worker = this.#worker ?? this.#start();
    this.flush();
    const id = this.#nextId++;
    return new Promise<WalletPage>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ kind: 'query', id, scope, query, deadline } satisfies ReplicaRequest);
    });
  }

  /**
   * Copies the wallets changed since the last copy. Not while a block is being applied (a
   * checkpoint is open): the copy holds committed states only, and catches up at the next.
   */
  flush(): void {
    const worker = this.#worker;
    const tracker = this.#tracker;
    if (worker === undefined || tracker === undefined || this.#source.inCheckpoint) return;
    const addresses = tracker.take();
    if (addresses.length === 0) return;
    const changes = addresses.map((address) => [address, this.#source.get(address)] as const);
    worker.postMessage({ kind: 'mirror', changes } satisfies ReplicaRequest);
  }

  /** Stops the worker; queries still waiting fail as busy. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#stop(new WalletQueryBusyError('wallet replica closed'));
  }

  #start(): Worker {
    const worker = new Worker(this.#workerUrl);
    this.#worker = worker;
    // Tracking starts before the copy: a wallet changed while it is read is sent again.
    this.#tracker = this.#source.trackChanges();
    let chunk: Wallet[] = [];
    for (const wallet of this.#source.all()) {
      chunk.push(wallet);
      if (chunk.length === LOAD_CHUNK) {
        worker.postMessage({ kind: 'load', wallets: chunk } satisfies ReplicaRequest);
        chunk = [];
      }
    }
    if (chunk.length > 0) worker.postMessage({ kind: 'load', wallets: chunk });
    worker.on('message', (response: ReplicaResponse) => this.#settle(response));
    worker.on('error', (error) => void this.#stop(busy('failed', error)));
    worker.on('exit', (code) => void this.#stop(busy(`exited with code ${code}`)));
    worker.unref();
    this.#flushTimer = setInterval(() => this.flush(), this.#flushIntervalMs);
    this.#flushTimer.unref();
    return worker;
  }

  #settle(response: ReplicaResponse): void {
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return;
    this.#pending.delete(response.id);
    if (this.#pending.size === 0) this.#worker?.unref();
    switch (response.kind) {
      case 'page':
        return pending.resolve(response.page);
      case 'expired':
        return pending.reject(new WalletQueryBusyError('the wallet query waited past its budget'));
      case 'refused':
        return pending.reject(new WalletQueryError(response.message, response.field));
      case 'failed':
        return pending.reject(new Error(`wallet replica: ${response.message}`));
    }
  }

  async #stop(reason: Error): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#tracker?.stop();
    this.#tracker = undefined;
    clearInterval(this.#flushTimer);
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
    if (worker !== undefined) {
      worker.removeAllListeners();
      await worker.terminate();
    }
  }
}

function busy(what: string, cause?: unknown): WalletQueryBusyError {
  const error = new WalletQueryBusyError(`wallet replica ${what}`);
  if (cause !== undefined) (error as Error).cause = cause;
  return error;
}
