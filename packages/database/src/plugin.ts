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
import { RoundStorage } from './storage/round-storage.js';
import { databaseSchema } from './migrations/index.js';
import { SchemaRegistry } from './schema/schema-registry.js';
import type { Service } from './service.js';
// The Cradle's `database` and `schemaRegistry`, which other plugins see through the contracts.
import type {} from './contracts.js';

declare module '@lni/kernel' {
  interface Cradle {
    readonly blockStorage: Service<BlockStorage>;
    readonly roundStorage: Service<RoundStorage>;
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
    const schemaRegistry = new SchemaRegistry();
    schemaRegistry.add('database', databaseSchema);
    const database = new Database({
      logger,
      events,
      databaseOptions: options,
      dataDirectory: paths.data,
      entities: () => schemaRegistry.entities(),
    });
    container.cradle.healthChecks.add(databaseHealthCheck(database));
    container.register({
      database: asValue(database),
      schemaRegistry: asValue(schemaRegistry),
      blockStorage: asClass(BlockStorage).singleton(),
      roundStorage: asClass(RoundStorage).singleton(),
      transactionQuery: asClass(TransactionQuery)
        .singleton()
        .inject(() => ({ databaseOptions: options })),
      blockQuery: asClass(BlockQuery)
        .singleton()
        .inject(() => ({ databaseOptions: options })),
      statisticsRefresher: asClass(StatisticsRefresher)
        .singleton()
        .inject(() => ({
          logger,
          intervalMs: options.statisticsIntervalMs,
          churningTables: () => schemaRegistry.churningTables(),
        })),
    });
  },
  async boot({ container, options, logger }) {
    const { database, schemaRegistry } = container.cradle;
    await database.open();
    try {
      // Every plugin has registered by now: their migrations run here, in dependency order.
      const schema = schemaRegistry.migrations();
      if (options.migrateOnStart) {
        await applySchemaMigrations(database, logger, schema);
      } else if (await hasPendingMigrations(database, schema)) {
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
