import {
  blockFromJson,
  calculateRound,
  Milestones,
  VerificationPool,
  type NetworkConfig,
} from '@lni/crypto';
import type { Cradle, EventBus, Logger } from '@lni/kernel';
import type { Histogram } from 'prom-client';
import { BlockProcessor } from '../blocks/block-processor.js';
import { IndexBackfill } from '../boot/index-backfill.js';
import type { FullBlock } from '../blocks/block-store.js';
import type { BlockHook } from '../blocks/block-hook.js';
import type { ChainListener } from '../blocks/chain-listener.js';
import type { VerifiedTransactions } from '../blocks/verified-transactions.js';
import { DatabaseBlockStore } from '../blocks/database-block-store.js';
import { SupplyCounter } from '../blocks/supply-counter.js';
import type { StateOptions } from '../config.js';
import type { PoolLimits } from '../contracts/pool.js';
import { poolEvents } from '../pool/pool-events.js';
import { PoolJournal } from '../pool/pool-journal.js';
import { TransactionPool } from '../pool/transaction-pool.js';
import { MissedSlotTracker } from '../production/missed-slots.js';
import { DelegateRanks } from '../rounds/delegate-ranks.js';
import { RoundKeeper } from '../rounds/round-keeper.js';
import { WalletQueryEngine } from '../wallets/query/wallet-query-engine.js';
import { CostRoutedWalletQueries } from '../wallets/replica/cost-routed-queries.js';
import { WalletReplica } from '../wallets/replica/wallet-replica.js';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { StateHash } from '../wallets/table/state-hash.js';
import { WalletTableWriter } from '../wallets/table/wallet-table-writer.js';

/** The parts of the ledger made at register: no storage, no I/O. */
export interface LedgerCore {
  readonly network: NetworkConfig;
  readonly milestones: Milestones;
  readonly genesisBlock: FullBlock;
  readonly walletRepository: WalletRepository;
  readonly walletQueryEngine: WalletQueryEngine;
  readonly walletQueries: CostRoutedWalletQueries;
  /** Started by the first costly query: a node whose API never asks one pays nothing. */
  readonly walletReplica?: WalletReplica;
  readonly supplyCounter: SupplyCounter;
  readonly roundKeeper: RoundKeeper;
  readonly missedSlots: MissedSlotTracker;
  readonly verificationPool?: VerificationPool;
  readonly poolLimits: PoolLimits;
  /** Writes the wallets table and its head with each block (issue 29). */
  readonly walletTable: WalletTableWriter;
  /** Sorts the wallet indexes a loaded boot leaves for later. */
  readonly indexBackfill: IndexBackfill;
}

export function assembleLedgerCore(network: NetworkConfig, options: StateOptions): LedgerCore {
  const milestones = new Milestones(network.milestones);
  const walletRepository = new WalletRepository();
  const roundKeeper = new RoundKeeper({ wallets: walletRepository, milestones });
  const walletQueryEngine = new WalletQueryEngine({ walletRepository });
  const walletReplica = options.walletQueries.offThread
    ? new WalletReplica(walletRepository, { maxQueued: options.walletQueries.maxQueued })
    : undefined;
  const supplyCounter = new SupplyCounter();
  const walletTable = new WalletTableWriter({
    wallets: walletRepository,
    stateHash: new StateHash(),
    supply: () => supplyCounter.value,
    roundAt: (height) => calculateRound(height, milestones).round,
  });
  const verificationPool =
    options.verificationWorkers > 0
      ? new VerificationPool({ size: options.verificationWorkers })
      : undefined;
  return {
    network,
    milestones,
    genesisBlock: blockFromJson(network.genesisBlock, { network: network.network.pubKeyHash }),
    walletRepository,
    walletQueryEngine,
    walletQueries: new CostRoutedWalletQueries({
      walletQueryEngine,
      ...(walletReplica && { walletReplica }),
      inlineVisits: options.walletQueries.inlineVisits,
    }),
    ...(walletReplica && { walletReplica }),
    supplyCounter,
    roundKeeper,
    missedSlots: new MissedSlotTracker({
      schedule: roundKeeper,
      wallets: walletRepository,
      milestones,
    }),
    ...(verificationPool && { verificationPool }),
    poolLimits: {
      maxTransactionsInPool: options.pool.maxTransactions,
      maxTransactionsPerSender: options.pool.maxPerSender,
      maxTransactionsPerRequest: options.pool.maxPerRequest,
      dynamicFees: { enabled: !options.pool.staticFees },
    },
    walletTable,
    indexBackfill: new IndexBackfill(walletRepository),
  };
}

type BlockStorage = Pick<
  Cradle,
  'database' | 'blockStorage' | 'roundStorage' | 'missedSlotStorage' | 'blockCommit'
>;

/** What follows whole blocks, in the order they are told of each. */
export function ledgerBlockHooks(
  core: Pick<LedgerCore, 'roundKeeper' | 'missedSlots' | 'supplyCounter' | 'walletRepository'>,
): BlockHook[] {
  // After the round keeper: the gap before a block is read in its round's order.
  return [
    core.roundKeeper,
    core.missedSlots,
    core.supplyCounter,
    new DelegateRanks(core.walletRepository),
  ];
}

/** The block processor writing through the database, telling the pool after each block. */
export function assembleBlockProcessor(
  core: LedgerCore,
  storage: BlockStorage,
  deps: {
    readonly pool: ChainListener & VerifiedTransactions;
    readonly logger: Logger;
    readonly events: EventBus;
    readonly applyDurations: Histogram;
  },
): BlockProcessor {
  const { walletRepository, roundKeeper, missedSlots, milestones, network } = core;
  return new BlockProcessor({
    wallets: walletRepository,
    milestones,
    network: { pubKeyHash: network.network.pubKeyHash, nethash: network.network.nethash },
    forgingSchedule: roundKeeper,
    blockStore: new DatabaseBlockStore({
      database: storage.database,
      blockStorage: storage.blockStorage,
      rounds: { storage: storage.roundStorage, elections: roundKeeper },
      missedSlots: { storage: storage.missedSlotStorage, log: missedSlots },
      blockCommit: storage.blockCommit,
      walletTable: core.walletTable,
    }),
    logger: deps.logger,
    events: deps.events,
    elections: roundKeeper,
    blockHooks: ledgerBlockHooks(core),
    applyDurations: deps.applyDurations,
    chainListeners: [deps.pool],
    verifiedTransactions: deps.pool,
    ...(core.verificationPool && { verificationPool: core.verificationPool }),
  });
}

/** The pool, kept in storage as it changes and announcing on the kernel's bus. */
export function assemblePool(
  core: LedgerCore,
  storage: Pick<Cradle, 'poolStorage'>,
  deps: {
    readonly options: StateOptions;
    readonly logger: Logger;
    readonly events: EventBus;
    /** The chain's tip when a transaction is judged. */
    readonly tip: () => { readonly height: number; readonly timestamp: number };
  },
): TransactionPool {
  const pool = new TransactionPool({
    wallets: core.walletRepository,
    milestones: core.milestones,
    network: { pubKeyHash: core.network.network.pubKeyHash },
    tip: deps.tip,
    poolOptions: deps.options.pool,
    logger: deps.logger,
    journal: new PoolJournal({ poolStorage: storage.poolStorage, logger: deps.logger }),
    ...(core.verificationPool && { verificationPool: core.verificationPool }),
  });
  pool.subscribe(poolEvents(deps.events));
  return pool;
}
