import { Gauge, Histogram, type Registry } from 'prom-client';

/** Seconds: an empty block applies in milliseconds, a full one on a loaded machine in seconds. */
const APPLY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface LedgerFigures {
  /** Height of the last block applied; 0 before the genesis block. */
  readonly height: () => number;
  /** Transactions waiting in the pool. */
  readonly poolSize: () => number;
}

/**
 * The ledger's metrics: lni_chain_height and lni_pool_transactions read at each scrape, and
 * lni_block_apply_seconds, which the block processor observes for each block it applies.
 */
export function registerLedgerMetrics(
  registry: Registry,
  figures: LedgerFigures,
): { readonly applyDurations: Histogram } {
  new Gauge({
    name: 'lni_chain_height',
    help: 'Height of the last block applied to the ledger',
    registers: [registry],
    collect() {
      this.set(figures.height());
    },
  });
  new Gauge({
    name: 'lni_pool_transactions',
    help: 'Transactions in the pool, waiting to be forged',
    registers: [registry],
    collect() {
      this.set(figures.poolSize());
    },
  });
  const applyDurations = new Histogram({
    name: 'lni_block_apply_seconds',
    help: 'Time to verify, apply and store one block received or forged (not the boot replay)',
    buckets: APPLY_BUCKETS,
    registers: [registry],
  });
  return { applyDurations };
}
