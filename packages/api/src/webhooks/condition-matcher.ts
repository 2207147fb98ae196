import type { Webhook } from './storage/webhook-storage.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { JsonValue } from '../resources/json-values.js';
import type { ConditionRequest, ConditionResponse } from './condition-protocol.js';

/** Matching that took longer than the matcher allows; the worker was stopped and is replaced. */
export class ConditionTimeoutError extends Error {
  readonly code = 'ERR_WEBHOOK_CONDITIONS_TIMEOUT';
}

interface Pending {
  readonly resolve: (matching: readonly string[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export interface ConditionMatcherOptions {
  /** How long one event's matching may take before the worker is replaced. */
  readonly timeoutMs?: number;
  readonly workerUrl?: URL;
}

/**
 * Tests webhook conditions on a worker thread (condition-worker.ts). Events are matched in the
 * order asked. A worker that does not answer within `timeoutMs` is terminated and a new one
 * started with the same webhooks; the matches waiting on it fail with ConditionTimeoutError.
 */
export class ConditionMatcher {
  readonly #timeoutMs: number;
  readonly #workerUrl: URL;
  readonly #pending = new Map<number, Pending>();
  #webhooks: ConditionRequest = { kind: 'webhooks', webhooks: [] };
  #worker: Worker | undefined;
  #nextId = 1;

  constructor(options: ConditionMatcherOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 2_000;
    this.#workerUrl = options.workerUrl ?? conditionWorkerUrl();
    if (this.#workerUrl.protocol === 'file:' && !existsSync(fileURLToPath(this.#workerUrl))) {
      throw new Error(
        `webhook condition worker not found at ${fileURLToPath(this.#workerUrl)}; build @lni/api first`,
      );
    }
  }

  /** The webhooks whose conditions later matches test. */
  setWebhooks(webhooks: readonly Webhook[]): void {
    this.#webhooks = {
      kind: 'webhooks',
      webhooks: webhooks.map(({ id, conditions }) => ({ id, conditions })),
    };
    this.#worker?.postMessage(this.#webhooks);
  }

  /** Which of `webhookIds` have every condition hold on `data`. */
  match(data: JsonValue, webhookIds: readonly string[]): Promise<readonly string[]> {
    const worker = this.#running();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        void this.#replace(
          new ConditionTimeoutError(`webhook conditions took longer than ${this.#timeoutMs} ms`),
        );
      }, this.#timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      worker.postMessage({ kind: 'match', id, data, webhookIds } satisfies ConditionRequest);
    });
  }

  async stop(): Promise<void> {
    await this.#replace(new Error('the webhook condition matcher stopped'));
  }

  #running(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#workerUrl);
    // Waiting matches keep the process alive with their timers; an idle worker does not.
    worker.unref();
    worker.on('message', ({ id, matching }: ConditionResponse) => {
      const pending = this.#pending.get(id);
      if (!pending) return;
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      pending.resolve(matching);
    });
    worker.on('error', (error) => void this.#replace(error));
    worker.postMessage(this.#webhooks);
    this.#worker = worker;
    return worker;
  }

  /** Fails every waiting match and stops the worker; the next match starts a new one. */
  async #replace(error: Error): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.#pending.delete(id);
    }
    await worker?.terminate();
  }
}

/** The compiled worker; from TypeScript source (vitest, tsx), the one in the package's dist/. */
function conditionWorkerUrl(moduleUrl: string = import.meta.url): URL {
  const url = new URL('./condition-worker.js', moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return url;
  return new URL(url.href.replace(/\/src\/(webhooks\/[^/]+)$/, '/dist/$1'));
}
