import { asClass, asFunction, asValue, type AwilixContainer, type Resolver } from 'awilix';
import { SharedTransaction } from '@lni/database';
import type {} from '@lni/database/contracts';
import {
  blockFromJson,
  loadNetworkConfig,
  Milestones,
  VerificationPool,
  type NetworkConfig,
} from '@lni/crypto';
import { definePlugin, describeError, type Cradle } from '@lni/kernel';
import { join } from 'node:path';
import { BlockProcessor } from './blocks/block-processor.js';
import type { BlockCommit, CommittedBlock } from './blocks/committed-block.js';
import { DatabaseBlockStore } from './blocks/database-block-store.js';
import { LedgerChainPort } from './chain/ledger-chain-port.js';
import { StateRebuilder } from './chain/state-rebuilder.js';
import { DelegateRanks } from './ledger/delegate-ranks.js';
import { LedgerForgingPort } from './ledger/ledger-forging-port.js';
import { RoundKeeper } from './ledger/round-keeper.js';
import { StateLedgerReader } from './ledger/state-ledger-reader.js';
import { stateConfigSchema, type StateOptions } from './ledger/state-options.js';
import { storeMissingRounds } from './ledger/stored-rounds.js';
import { SupplyCounter } from './ledger/supply-counter.js';
import { registerLedgerMetrics } from './metrics/ledger-metrics.js';
import { MissedSlotTracker } from './production/missed-slots.js';
import { publishMissedSlots } from './production/missed-slot-events.js';
import { storeMissedSlots } from './production/stored-missed-slots.js';
import { LegacyPoolFile } from './pool/legacy-pool-file.js';
import { poolEvents } from './pool/pool-events.js';
import { PoolJournal } from './pool/pool-journal.js';
import { PoolRecovery } from './pool/pool-recovery.js';
import { TransactionPool } from './pool/transaction-pool.js';
import { WalletQueryEngine, type WalletQueries } from './wallets/query/wallet-query-engine.js';
import {
  CostRoutedWalletQueries,
  type AsyncWalletQueries,
} from './wallets/replica/cost-routed-queries.js';
import { WalletReplica } from './wallets/replica/wallet-replica.js';
import { WalletRepository } from './wallets/wallet-repository.js';
import type { WalletStore } from './wallets/wallet-store.js';
import { MissedSlotStorage } from './storage/missed-slot-storage.js';
import { PoolStorage } from './storage/pool-storage.js';
import { stateSchema } from './storage/state-schema.js';

/** A service's public members: classes with private fields would not merge across src and dist. */
type Service<T> = { [K in keyof T]: T[K] };

declare module '@lni/kernel' {
  interface Cradle {
    /** Every wallet of the ledger with its secondary indexes; change wallets only through it. */
    readonly walletRepository: WalletStore;
    /** Answers the wallet and delegate index endpoints from the repository's indexes. */
    readonly walletQueryEngine: WalletQueries;
    /** The same, with costly queries answered off the node's thread (see options). */
    readonly walletQueries: AsyncWalletQueries;
    readonly blockProcessor: Service<BlockProcessor>;
    readonly transactionPool: Service<TransactionPool>;
    /** The transaction each applied block is stored in; join it to write with the block. */
    readonly blockCommit: BlockCommit;
    /** The transaction pool as kept on disk (state's table). */
    readonly poolStorage: Service<PoolStorage>;
    /** Slots delegates let pass, with the block after each gap (state's table). */
    readonly missedSlotStorage: Service<MissedSlotStorage>;
  }
}

// Names other plugins resolve with the shapes they declare themselves (`apiLedger`,
// `networkConfig`, `poolLimits` by the API, `p2pForging` by P2P, `forgerDelegates` by the
// forger): registered untyped here so
// that neither package imports the other's declarations.
function provide(container: AwilixContainer<Cradle>, name: string, resolver: Resolver<unknown>) {
  (container as unknown as AwilixContainer<Record<string, unknown>>).register(name, resolver);
}

/**
 * The ledger: wallets and their indexes, DPoS rounds, the block processor writing through
 * @lni/database, the transaction pool, and the ports the API, P2P and forgers read.
 */
export const statePlugin = definePlugin<StateOptions>({
  name: 'state',
  dependsOn: { required: ['database'] },
  configSchema: stateConfigSchema,
  // The network's crypto files are configuration: a mistake there stops start-up before any write.
  checkConfig({ paths }) {
    try {
      loadNetworkConfig(join(paths.config, 'crypto'));
      return [];
    } catch (error) {
      return [describeError(error)];
    }
  },
  register({ container, options, logger, events, paths }) {
    const network: NetworkConfig = loadNetworkConfig(join(paths.config, 'crypto'));
    const milestones = new Milestones(network.milestones);
    const pubKeyHash = network.network.pubKeyHash;
    const walletRepository = new WalletRepository();
    const supplyCounter = new SupplyCounter();
    const roundKeeper = new RoundKeeper({ wallets: walletRepository, milestones });
    const missedSlots = new MissedSlotTracker({
      schedule: roundKeeper,
      wallets: walletRepository,
      milestones,
    });
    const verificationPool =
      options.verificationWorkers > 0
        ? new VerificationPool({ size: options.verificationWorkers })
        : undefined;
    const walletQueryEngine = new WalletQueryEngine({ walletRepository });
    // Started by the first costly query: a node whose API never asks one pays nothing.
    const walletReplica = options.walletQueries.offThread
      ? new WalletReplica(walletRepository, { maxQueued: options.walletQueries.maxQueued })
      : undefined;
    const { applyDurations } = registerLedgerMetrics(container.cradle.metrics, {
      height: () => container.cradle.blockProcessor.lastBlock?.height ?? 0,
      poolSize: () => container.cradle.transactionPool.size,
    });
    container.cradle.schemaRegistry.add('state', stateSchema);
    container.register({
      poolStorage: asClass(PoolStorage).singleton(),
      missedSlotStorage: asClass(MissedSlotStorage).singleton(),
      blockCommit: asFunction(
        ({ database }) => new SharedTransaction<CommittedBlock>({ database }),
      ).singleton(),
      walletRepository: asValue(walletRepository),
      walletQueryEngine: asValue(walletQueryEngine),
      walletQueries: asValue(
        new CostRoutedWalletQueries({
          walletQueryEngine,
          ...(walletReplica && { walletReplica }),
          inlineVisits: options.walletQueries.inlineVisits,
        }),
      ),
      stateWalletReplica: asValue(walletReplica),
      blockProcessor: asFunction(
        ({
          database,
          blockStorage,
          roundStorage,
          missedSlotStorage,
          transactionPool,
          blockCommit,
        }) =>
          new BlockProcessor({
            wallets: walletRepository,
            milestones,
            network: { pubKeyHash, nethash: network.network.nethash },
            forgingSchedule: roundKeeper,
            blockStore: new DatabaseBlockStore({
              database,
              blockStorage,
              rounds: { storage: roundStorage, elections: roundKeeper },
              missedSlots: { storage: missedSlotStorage, log: missedSlots },
              blockCommit,
            }),
            logger,
            events,
            elections: roundKeeper,
            // After the round keeper: the gap before a block is read in its round's order.
            blockHooks: [
              roundKeeper,
              missedSlots,
              supplyCounter,
              new DelegateRanks(walletRepository),
            ],
            applyDurations,
            chainListeners: [transactionPool],
            verifiedTransactions: transactionPool,
            ...(verificationPool && { verificationPool }),
          }),
      ).singleton(),
      transactionPool: asFunction(({ poolStorage }) => {
        const pool = new TransactionPool({
          wallets: walletRepository,
          milestones,
          network: { pubKeyHash },
          // Resolved when judging: the processor takes the pool as its listener, so the pool
          // cannot take the processor when it is made.
          tip: () => {
            const last = container.cradle.blockProcessor.lastBlock;
            return { height: last?.height ?? 0, timestamp: last?.timestamp ?? 0 };
          },
          poolOptions: options.pool,
          logger,
          journal: new PoolJournal({ poolStorage, logger }),
          ...(verificationPool && { verificationPool }),
        });
        pool.subscribe(poolEvents(events));
        return pool;
      }).singleton(),
    });
    provide(container, 'roundKeeper', asValue(roundKeeper));
    provide(container, 'missedSlots', asValue(missedSlots));
    publishMissedSlots({
      events,
      log: missedSlots,
      metrics: container.cradle.metrics,
      username: (publicKey) =>
        walletRepository.byPublicKey(publicKey)?.attributes.delegate?.username,
    });
    provide(container, 'networkConfig', asValue(network));
    provide(container, 'milestones', asValue(milestones));
    provide(
      container,
      'poolLimits',
      asValue({
        maxTransactionsInPool: options.pool.maxTransactions,
        maxTransactionsPerSender: options.pool.maxPerSender,
        maxTransactionsPerRequest: options.pool.maxPerRequest,
        dynamicFees: { enabled: !options.pool.staticFees },
      }),
    );
    provide(
      container,
      'apiLedger',
      asFunction(
        ({ walletQueries, blockProcessor }) =>
          new StateLedgerReader({
            walletRepository,
            walletQueries,
            blockProcessor,
            supplyCounter,
            milestones,
            pubKeyHash,
          }),
      ).singleton(),
    );
    provide(
      container,
      'p2pChain',
      asFunction(
        ({ blockProcessor, transactionPool, database, blockStorage }) =>
          new LedgerChainPort({
            blockProcessor,
            transactionPool,
            blockStore: new DatabaseBlockStore({ database, blockStorage }),
            roundKeeper,
            milestones,
            network: network.network,
            logger,
          }),
      ).singleton(),
    );
    provide(
      container,
      'p2pForging',
      asFunction(
        ({ blockProcessor, transactionPool }) =>
          new LedgerForgingPort({
            blockProcessor,
            roundKeeper,
            transactionPool,
            wallets: walletRepository,
            milestones,
          }),
      ).singleton(),
    );
    provide(
      container,
      'forgerDelegates',
      asFunction(({ blockProcessor }) => ({
        height: () => blockProcessor.lastBlock?.height ?? 0,
        delegate: (publicKey: string) => {
          const delegate = walletRepository.byPublicKey(publicKey)?.attributes.delegate;
          return delegate && { username: delegate.username, resigned: delegate.resigned === true };
        },
      })).singleton(),
    );
    provide(container, 'stateVerificationPool', asValue(verificationPool));
    provide(
      container,
      'genesisBlock',
      asValue(blockFromJson(network.genesisBlock, { network: pubKeyHash })),
    );
  },

  async boot({ container, logger, options, paths }) {
    const cradle = container.cradle as Cradle & Record<string, unknown>;
    const { blockProcessor, transactionPool, database, blockStorage, poolStorage } = cradle;
    const { walletRepository } = cradle;
    const blockStore = new DatabaseBlockStore({ database, blockStorage });
    if ((await blockStore.lastBlock()) === undefined) {
      await blockProcessor.process(cradle.genesisBlock as never);
      logger.info({ height: 1 }, 'Genesis block applied');
    } else {
      const rebuilt = await new StateRebuilder({
        blockStore,
        blockProcessor: blockProcessor as BlockProcessor,
        wallets: walletRepository as WalletRepository,
        logger,
        rebuildBatchSize: options.rebuildBatchSize,
      }).rebuild();
      logger.info({ ...rebuilt }, 'State rebuilt from storage');
      const roundKeeper = cradle.roundKeeper as RoundKeeper;
      const roundsStored = await storeMissingRounds(
        cradle.roundStorage,
        roundKeeper.elections(),
        roundKeeper.latestRoundAt(rebuilt.height),
      );
      if (roundsStored > 0) logger.info({ rounds: roundsStored }, 'Rounds stored');
      const missedStored = await storeMissedSlots(
        cradle.missedSlotStorage,
        cradle.missedSlots as MissedSlotTracker,
      );
      if (missedStored > 0) logger.info({ slots: missedStored }, 'Missed slots stored');
      await blockProcessor.initialize();
    }
    await new PoolRecovery({
      transactionPool,
      poolStorage,
      legacyFile: new LegacyPoolFile(join(paths.data, 'pool.json')),
      logger,
    }).recover();
  },

  async dispose({ container }) {
    const cradle = container.cradle as Cradle & Record<string, unknown>;
    // The pool is kept as it changes; only the writes still under way need to finish.
    await cradle.transactionPool.flush();
    await (cradle.stateVerificationPool as VerificationPool | undefined)?.close();
    await (cradle.stateWalletReplica as WalletReplica | undefined)?.close();
  },
});

export default statePlugin;
