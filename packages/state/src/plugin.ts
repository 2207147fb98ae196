import { asClass, asFunction, asValue } from 'awilix';
import { SharedTransaction } from '@lni/database';
import type {} from '@lni/database/contracts';
import { loadNetworkConfig } from '@lni/crypto';
import { definePlugin, describeError, type Container } from '@lni/kernel';
import { join } from 'node:path';
import { LedgerChain } from './adapters/ledger-chain.js';
import { ledgerStatusSections, poolOperations } from './admin/pool-operations.js';
import { LedgerForgingSource } from './adapters/ledger-forging-source.js';
import { StateLedgerReader } from './adapters/state-ledger-reader.js';
import { WalletDelegateDirectory } from './adapters/delegate-directory.js';
import { DatabaseBlockStore } from './blocks/database-block-store.js';
import { LedgerBoot } from './boot/ledger-boot.js';
import { stateCommands } from './commands/state-verify.js';
import { WalletTableLoader } from './wallets/table/wallet-table-loader.js';
import { stateConfigSchema, type StateOptions } from './config.js';
import './contracts/index.js';
import './internal-services.js';
import { registerLedgerMetrics } from './metrics/ledger-metrics.js';
import { LegacyPoolFile } from './pool/legacy-pool-file.js';
import type { CommittedBlock } from './contracts/storage.js';
import { MissedSlotStorage } from './storage/missed-slot-storage.js';
import { PoolStorage } from './storage/pool-storage.js';
import { stateSchema } from './storage/state-schema.js';
import { publishMissedSlots } from './production/missed-slot-events.js';
import {
  assembleBlockProcessor,
  assembleLedgerCore,
  assemblePool,
  type LedgerCore,
} from './wiring/assemble-ledger.js';

/** Each node's ledger parts, by its container: several nodes may run in one process (tests). */
const cores = new WeakMap<Container, LedgerCore>();

function coreOf(container: Container): LedgerCore {
  const core = cores.get(container);
  if (!core) throw new Error('the state plugin was not registered in this container');
  return core;
}

/**
 * The ledger: wallets and their indexes, DPoS rounds, the block processor writing through
 * @lni/database, the transaction pool, and the services other plugins use through
 * `@lni/state/contracts` (`ledger`, `chain`, `forgingSource`, `delegates`, `transactionPool`).
 */
export const statePlugin = definePlugin<StateOptions>({
  name: 'state',
  dependsOn: { required: ['database'] },
  configSchema: stateConfigSchema,
  commands: stateCommands,
  // The network's crypto files are configuration: a mistake there stops start-up before any write.
  checkConfig({ paths }) {
    try {
      loadNetworkConfig(join(paths.config, 'crypto'));
      return [];
    } catch (error) {
      return [describeError(error)];
    }
  },
  register({ container, options, logger, events, paths, name }) {
    const core = assembleLedgerCore(loadNetworkConfig(join(paths.config, 'crypto')), options);
    cores.set(container, core);
    const { walletRepository, milestones, roundKeeper } = core;
    const { applyDurations } = registerLedgerMetrics(container.cradle.metrics, {
      height: () => container.cradle.blockProcessor.lastBlock?.height ?? 0,
      poolSize: () => container.cradle.ledgerPool.size,
    });
    const height = () => container.cradle.blockProcessor.lastBlock?.height ?? 0;
    container.cradle.schemaRegistry.add('state', stateSchema);
    // The chain's integrity check runs while the boot reads the wallets table (LedgerBoot
    // awaits it before it keeps or replays anything).
    container.cradle.chainVerification.takeOver(name);
    const pool = () => container.cradle.ledgerPool;
    container.cradle.adminOperations.add(name, ...poolOperations(pool));
    container.cradle.statusSections.add(
      name,
      ...ledgerStatusSections(() => container.cradle.blockProcessor, pool),
    );
    container.register({
      poolStorage: asClass(PoolStorage).singleton(),
      missedSlotStorage: asClass(MissedSlotStorage).singleton(),
      missedSlots: asFunction(({ missedSlotStorage }) => missedSlotStorage).singleton(),
      blockCommit: asFunction(
        ({ database }) => new SharedTransaction<CommittedBlock>({ database }),
      ).singleton(),
      walletRepository: asValue(walletRepository),
      walletQueryEngine: asValue(core.walletQueryEngine),
      walletQueries: asValue(core.walletQueries),
      roundKeeper: asValue(roundKeeper),
      networkConfig: asValue(core.network),
      milestones: asValue(milestones),
      poolLimits: asValue(core.poolLimits),
      blockProcessor: asFunction((cradle) =>
        assembleBlockProcessor(core, cradle, {
          pool: cradle.ledgerPool,
          logger,
          events,
          applyDurations,
        }),
      ).singleton(),
      ledgerPool: asFunction((cradle) =>
        assemblePool(core, cradle, {
          options,
          logger,
          events,
          // Resolved when judging: the processor takes the pool as its listener, so the pool
          // cannot take the processor when it is made.
          tip: () => {
            const last = container.cradle.blockProcessor.lastBlock;
            return { height: last?.height ?? 0, timestamp: last?.timestamp ?? 0 };
          },
        }),
      ).singleton(),
      transactionPool: asFunction(({ ledgerPool }) => ledgerPool).singleton(),
      ledger: asFunction(
        ({ walletQueries, blockProcessor }) =>
          new StateLedgerReader({
            walletRepository,
            walletQueries,
            blockProcessor,
            supplyCounter: core.supplyCounter,
            milestones,
            pubKeyHash: core.network.network.pubKeyHash,
          }),
      ).singleton(),
      chain: asFunction(
        ({ blockProcessor, ledgerPool, database, blockStorage }) =>
          new LedgerChain({
            blockProcessor,
            transactionPool: ledgerPool,
            blockStore: new DatabaseBlockStore({ database, blockStorage }),
            roundKeeper,
            milestones,
            network: core.network.network,
            logger,
          }),
      ).singleton(),
      forgingSource: asFunction(
        ({ blockProcessor, ledgerPool }) =>
          new LedgerForgingSource({
            blockProcessor,
            roundKeeper,
            transactionPool: ledgerPool,
            wallets: walletRepository,
            milestones,
          }),
      ).singleton(),
      delegates: asValue(new WalletDelegateDirectory({ wallets: walletRepository, height })),
    });
    // The indexes a loaded boot left unsorted are built once every plugin has started.
    events.on('kernel.booted', () => core.indexBackfill.start(logger));
    publishMissedSlots({
      events,
      log: core.missedSlots,
      metrics: container.cradle.metrics,
      username: (publicKey) =>
        walletRepository.byPublicKey(publicKey)?.attributes.delegate?.username,
    });
  },

  async boot({ container, logger, options, paths }) {
    const core = coreOf(container);
    const { blockProcessor, ledgerPool, database, blockStorage } = container.cradle;
    await new LedgerBoot({
      blockStore: new DatabaseBlockStore({ database, blockStorage }),
      blockProcessor,
      wallets: core.walletRepository,
      genesisBlock: core.genesisBlock,
      roundKeeper: core.roundKeeper,
      roundStorage: container.cradle.roundStorage,
      missedSlots: core.missedSlots,
      missedSlotStorage: container.cradle.missedSlotStorage,
      transactionPool: ledgerPool,
      poolStorage: container.cradle.poolStorage,
      legacyPoolFile: new LegacyPoolFile(join(paths.data, 'pool.json')),
      logger,
      rebuildBatchSize: options.rebuildBatchSize,
      chainVerified: () => container.cradle.chainVerification.verified(),
      walletTable: {
        load: options.walletTable.load,
        loader: new WalletTableLoader({
          manager: database.manager,
          wallets: core.walletRepository,
          stateHash: core.walletTable.stateHash,
          supplyCounter: core.supplyCounter,
          roundKeeper: core.roundKeeper,
          missedSlots: core.missedSlots,
        }),
        writer: core.walletTable,
        database,
      },
    }).run();
  },

  async dispose({ container }) {
    const core = coreOf(container);
    core.indexBackfill.stop();
    // The pool is kept as it changes; only the writes still under way need to finish.
    await container.cradle.ledgerPool.flush();
    await core.verificationPool?.close();
    await core.walletReplica?.close();
  },
});

export default statePlugin;
