import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { VerificationItem } from './verification-item.js';
import { VerificationPoolError } from './verification-pool-error.js';
import { packItems } from './wire.js';
import type { WorkerRequest, WorkerResponse, WorkerStop } from './worker.js';
import { assertWorkerExists, defaultWorkerUrl } from './worker-location.js';

export interface VerificationPoolOptions {
  /** Worker threads; defaults to the number of cores. */
  readonly size?: number;
  /** Fewest items worth a chunk of their own; smaller batches go to one worker. */
  readonly minChunk?: number;
  readonly workerUrl?: URL;
}

interface Task {
  readonly request: WorkerRequest;
  readonly resolve: (results: Uint8Array) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
}

/**
 * How long close() waits for a worker to stop by itself before stopping it from outside, which
 * aborts the process if the worker is then inside the native addon: a last resort.
 */
const STOP_WAIT_MS = 30_000;

/**
 * Worker threads that verify signatures off the event loop. A big batch is cut into one chunk
 * per worker, so throughput grows with cores; idle workers do not keep the process alive. A
 * thread stopped from outside while it is inside the native signature addon (loading it, or
 * making its first context) aborts the whole process, as the addon asserts. So the workers
 * start with the first verification (a node whose start fails before it verifies anything has
 * none), and close() asks each one to stop after what it was sent, and waits until it has.
 */
export class VerificationPool {
  readonly size: number;
  readonly #minChunk: number;
  readonly #workerUrl: URL;
  readonly #slots: Slot[] = [];
  readonly #queue: Task[] = [];
  #nextId = 0;
  #closed = false;

  constructor(options: VerificationPoolOptions = {}) {
    const size = options.size ?? availableParallelism();
    if (!Number.isInteger(size) || size < 1) {
      throw new VerificationPoolError(`size: expected a positive integer, got ${String(size)}`);
    }
    this.size = size;
    this.#minChunk = Math.max(1, options.minChunk ?? 64);
    this.#workerUrl = options.workerUrl ?? defaultWorkerUrl();
    assertWorkerExists(this.#workerUrl);
  }

  /** The validity of each item, in order; malformed items are false. */
  async verify(items: readonly VerificationItem[]): Promise<boolean[]> {
    const chunks = await this.#run(items, 'each');
    return chunks.flatMap((results) => Array.from(results, (byte) => byte === 1));
  }

  /** Whether every item is valid (batch verification; cheaper when all are). */
  async verifyBatch(items: readonly VerificationItem[]): Promise<boolean> {
    const chunks = await this.#run(items, 'all');
    return chunks.every((results) => results[0] === 1);
  }

  /** Stops every worker; pending calls reject. Calling it again is harmless. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const error = new VerificationPoolError('verification pool closed');
    for (const task of this.#queue.splice(0)) task.reject(error);
    for (const slot of this.#slots) slot.task?.reject(error);
    await Promise.all(this.#slots.map((slot) => stopWorker(slot.worker)));
  }

  async #run(
    items: readonly VerificationItem[],
    mode: WorkerRequest['mode'],
  ): Promise<Uint8Array[]> {
    if (this.#closed) throw new VerificationPoolError('verification pool closed');
    if (!Array.isArray(items)) {
      throw new VerificationPoolError(`items: expected an array, got ${typeof items}`);
    }
    if (items.length === 0) return [];
    const chunkSize = Math.max(this.#minChunk, Math.ceil(items.length / this.size));
    const pending: Promise<Uint8Array>[] = [];
    for (let start = 0; start < items.length; start += chunkSize) {
      const packed = packItems(items, start, Math.min(items.length, start + chunkSize));
      pending.push(this.#submit({ id: this.#nextId++, mode, packed }));
    }
    return Promise.all(pending);
  }

  #submit(request: WorkerRequest): Promise<Uint8Array> {
    if (this.#slots.length === 0) {
      for (let i = 0; i < this.size; i++) this.#slots.push(this.#spawn());
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      this.#dispatch();
    });
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.task !== undefined) continue;
      const task = this.#queue.shift();
      if (task === undefined) return;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage(task.request, [task.request.packed]);
    }
  }

  #spawn(): Slot {
    const worker = new Worker(this.#workerUrl);
    const slot: Slot = { worker, task: undefined };
    worker.unref();
    worker.on('message', (response: WorkerResponse) => {
      const task = slot.task;
      slot.task = undefined;
      worker.unref();
      if (task?.request.id === response.id) task.resolve(response.results);
      this.#dispatch();
    });
    worker.on('error', (error) => this.#replace(slot, error));
    worker.on('exit', (code) => {
      if (!this.#closed) this.#replace(slot, new Error(`worker exited with code ${code}`));
    });
    return slot;
  }

  /** A dead worker fails only its own chunk; a fresh one takes its place for the next. */
  #replace(slot: Slot, cause: unknown): void {
    if (this.#closed || !this.#slots.includes(slot)) return;
    slot.task?.reject(new VerificationPoolError('verification worker failed', { cause }));
    const index = this.#slots.indexOf(slot);
    this.#slots.splice(index, 1);
    void slot.worker.terminate();
    this.#slots.push(this.#spawn());
    this.#dispatch();
  }
}

/** Asks a worker to stop once it is done with what it was sent, and waits until it has exited. */
async function stopWorker(worker: Worker): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = await new Promise<boolean>((resolve) => {
    worker.once('exit', () => resolve(true));
    timer = setTimeout(() => resolve(false), STOP_WAIT_MS);
    worker.postMessage({ stop: true } satisfies WorkerStop);
  });
  clearTimeout(timer);
  if (!stopped) await worker.terminate();
}
