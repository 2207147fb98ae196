import type { Logger } from '@lni/kernel';
import { performance } from 'node:perf_hooks';
import type { WalletRepository } from '../wallets/wallet-repository.js';

/**
 * Builds the sorted wallet indexes a loaded boot left pending, one per turn of the event loop,
 * a moment after the node is up, so that the API's first answers and the first blocks do not
 * wait behind them (each index takes a few hundred ms at 100,000 wallets; a query that needs
 * one before then builds that one itself).
 */
export class IndexBackfill {
  readonly #wallets: Pick<WalletRepository, 'buildPendingIndex' | 'pendingIndexes'>;
  readonly #delayMs: number;
  #delay: NodeJS.Timeout | undefined;
  #timer: NodeJS.Immediate | undefined;

  constructor(
    wallets: Pick<WalletRepository, 'buildPendingIndex' | 'pendingIndexes'>,
    delayMs = 2_000,
  ) {
    this.#wallets = wallets;
    this.#delayMs = delayMs;
  }

  start(logger: Logger): void {
    if (this.#delay || this.#timer || this.#wallets.pendingIndexes === 0) return;
    let started = 0;
    const step = () => {
      if (this.#wallets.buildPendingIndex()) {
        this.#timer = setImmediate(step);
        return;
      }
      this.#timer = undefined;
      logger.debug({ ms: Math.round(performance.now() - started) }, 'Wallet indexes built');
    };
    this.#delay = setTimeout(() => {
      started = performance.now();
      this.#timer = setImmediate(step);
    }, this.#delayMs);
    this.#delay.unref();
  }

  /** Stops building; what is left is still built on first use. Harmless when not running. */
  stop(): void {
    clearTimeout(this.#delay);
    this.#delay = undefined;
    if (this.#timer) clearImmediate(this.#timer);
    this.#timer = undefined;
  }
}
