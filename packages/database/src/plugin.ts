import { asClass, asValue } from 'awilix';
import { definePlugin } from '@lni/kernel';
import { databaseConfigSchema, databaseEnvironment, type DatabaseOptions } from './config.js';
import { Database } from './connection/database.js';
import { databaseHealthCheck } from './connection/database-health-check.js';
import { MigrationError } from './errors.js';
import { checkChainIntegrity } from './integrity/integrity-check.js';
import { StatisticsRefresher } from './maintenance/statistics-refresher.js';
import { applySchemaMigrations, hasPendingMigrations } from './migrations/migrate.js';
import { BlockQuery, TransactionQuery } from './query/transaction-query.js';
import { BlockStorage } from './storage/block-storage.js';
import { PeerStorage } from './storage/peer-storage.js';
import { MissedSlotStorage } from './storage/missed-slot-storage.js';
import { PoolStorage } from './storage/pool-storage.js';
import { WebhookStorage } from './storage/webhook-storage.js';
import { RoundStorage } from './storage/round-storage.js';
import type { Service } from './service.js';

declare module '@lni/kernel' {
  interface Cradle {
    /** The connection; `available` is false while the database does not answer. */
    readonly database: Service<Database>;
    readonly blockStorage: Service<BlockStorage>;
    readonly roundStorage: Service<RoundStorage>;
    /** Known P2P peers and penalties; the p2p plugin reads it as its PeerStore. */
    readonly peerStorage: Service<PeerStorage>;
    /** The transaction pool as kept on disk. */
    readonly poolStorage: Service<PoolStorage>;
    /** Slots delegates let pass, with the block after each gap. */
    readonly missedSlotStorage: Service<MissedSlotStorage>;
    /** Webhooks, their deliveries and attempts. */
    readonly webhookStorage: Service<WebhookStorage>;
    readonly transactionQuery: Service<TransactionQuery>;
    readonly blockQuery: Service<BlockQuery>;
    readonly statisticsRefresher: Service<StatisticsRefresher>;
  }
}

export const databasePlugin = definePlugin<DatabaseOptions>({
  name: 'database',
  configSchema: databaseConfigSchema,
  environment: databaseEnvironment,
  register({ container, options, logger, events, paths }) {
    const database = new Database({
      logger,
      events,
      databaseOptions: options,
      dataDirectory: paths.data,
    });
    container.cradle.healthChecks.add(databaseHealthCheck(database));
    container.register({
      database: asValue(database),
      blockStorage: asClass(BlockStorage).singleton(),
      roundStorage: asClass(RoundStorage).singleton(),
      peerStorage: asClass(PeerStorage).singleton(),
      poolStorage: asClass(PoolStorage).singleton(),
      missedSlotStorage: asClass(MissedSlotStorage).singleton(),
      webhookStorage: asClass(WebhookStorage).singleton(),
      transactionQuery: asClass(TransactionQuery)
        .singleton()
        .inject(() => ({ databaseOptions: options })),
      blockQuery: asClass(BlockQuery)
        .singleton()
        .inject(() => ({ databaseOptions: options })),
      statisticsRefresher: asClass(StatisticsRefresher)
        .singleton()
        .inject(() => ({ logger, intervalMs: options.statisticsIntervalMs })),
    });
  },
  async boot({ container, options, logger }) {
    const { database } = container.cradle;
    await database.open();
    try {
      if (options.migrateOnStart) {
        await applySchemaMigrations(database, logger);
      } else if (await hasPendingMigrations(database)) {
        throw new MigrationError(
          `The database (${database.description}) has pending migrations and migrateOnStart is off: run "kernel db:migrate"`,
        );
      }
      if (options.integrityCheck) {
        const height = await checkChainIntegrity(database.manager);
        logger.info({ height }, 'Stored chain verified');
      }
    } catch (error) {
      await database.close();
      throw error;
    }
    database.startMonitoring();
    container.cradle.statisticsRefresher.start();
  },
  async dispose({ container }) {
    await container.cradle.statisticsRefresher.stop();
    await container.cradle.database.close();
  },
});

export default databasePlugin;
