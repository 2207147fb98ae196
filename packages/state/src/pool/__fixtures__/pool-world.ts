import { createLogger } from '@lni/kernel';
import type { BlockStore } from '../../blocks/block-store.js';
import { PUB_KEY_HASH, testNetwork, testProcessor } from '../../blocks/__fixtures__/test-chain.js';
import { PoolAdmission } from '../pool-admission.js';
import { PoolAnnouncer, type PoolRemoval } from '../pool-announcer.js';
import { PoolIndex } from '../pool-index.js';
import type { PoolJournal } from '../pool-journal.js';
import { PoolKeeper } from '../pool-keeper.js';
import { PoolLedger } from '../pool-ledger.js';
import { poolOptions, type PoolOptions } from '../pool-options.js';
import { PoolReconciliation } from '../pool-reconciliation.js';

export const poolNetwork = testNetwork({ maxTransactions: 20 });
export const quietLogger = createLogger({ level: 'fatal' });

/** A block store for tests that apply blocks to state only. */
export const noStorage = new Proxy({} as BlockStore, {
  get: () => () => Promise.reject(new Error('the pool tests use no storage')),
});

/** Wallets after the genesis block, and the ledger as the pool sees it over them. */
export function ledgerWorld(clock = () => 1_000_000) {
  const { wallets, processor } = testProcessor(poolNetwork, noStorage);
  processor.applyToState(poolNetwork.genesis);
  const ledger = new PoolLedger({
    wallets,
    milestones: poolNetwork.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    tip: () => processor.lastBlock ?? { height: 0, timestamp: 0 },
    staticFees: false,
    clock,
  });
  return { wallets, processor, ledger };
}

/**
 * The pool's parts over `ledgerWorld`, wired as TransactionPool wires them, with every removal
 * recorded in `removals` as the index reports it.
 */
export function poolParts(
  options: Partial<PoolOptions> = {},
  { clock, journal }: { clock?: () => number; journal?: PoolJournal } = {},
) {
  const { wallets, processor, ledger } = ledgerWorld(clock);
  const limits = poolOptions({ staticFees: false, ...options });
  const announcer = new PoolAnnouncer();
  const keeper = new PoolKeeper({ logger: quietLogger, journal });
  const removals: PoolRemoval[] = [];
  const index = new PoolIndex(limits, (entry, reason) => {
    removals.push({ entry, reason });
    keeper.removed(entry.id);
    announcer.leaving(entry, reason);
  });
  const admission = new PoolAdmission({
    index,
    ledger,
    network: { pubKeyHash: PUB_KEY_HASH },
    maxPerSender: limits.maxPerSender,
  });
  const reconciliation = new PoolReconciliation({
    index,
    admission,
    ledger,
    keeper,
    announcer,
    logger: quietLogger,
    maxAgeSeconds: limits.maxAgeSeconds,
  });
  return {
    wallets,
    processor,
    ledger,
    index,
    admission,
    announcer,
    keeper,
    reconciliation,
    removals,
  };
}
