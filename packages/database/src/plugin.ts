import { asClass, asValue } from 'awilix';
import { definePlugin, type Logger } from '@lni/kernel';
import { databaseConfigSchema, databaseEnvironment, type DatabaseOptions } from './config.js';
import { Database } from './connection/database.js';
import { databaseHealthCheck } from './connection/database-health-check.js';
import { DatabaseError, MigrationError } from './errors.js';
import { ChainVerification } from './integrity/chain-verification.js';
import { checkChainIntegrity } from './integrity/integrity-check.js';
import { StatisticsRefresher } from './maintenance/statistics-refresher.js';
import { applySchemaMigrations, hasPendingMigrations } from './migrations/migrate.js';
import { requireMigratedSchema } from './migrations/schema-check.js';
import { createCommitSignals } from './signals/create-commit-signals.js';
import { BlockQuery, TransactionQuery } from './query/transaction-query.js';
import { BlockStorage } from './storage/block-storage.js';
import { RoundStorage } from './storage/round-storage.js';
import { databaseSchema } from './migrations/index.js';
import { SchemaRegistry } from './schema/schema-registry.js';
import type { Service } from './service.js';
// The Cradle's `database` and `schemaRegistry`, which other plugins see through the contracts.
import type { DatabaseConnection } from './contracts.js';

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
  checkConfig: ({ options }) =>
    options.readOnly && !options.connection.host && !options.connection.url
      ? [
          "option 'readOnly' needs a PostgreSQL server (connection.host or connection.url, CORE_DB_HOST or CORE_DB_URL): the embedded database belongs to the node that writes it",
        ]
      : [],
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
      chainVerification: asValue(new ChainVerification()),
      commitSignals: asValue(
        createCommitSignals({ logger, options, database, metrics: container.cradle.metrics }),
      ),
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
      if (!database.isEmbedded) await checkStandby(database, options, logger);
      // Every plugin has registered by now: their migrations run here, in dependency order.
      const schema = schemaRegistry.migrations();
      if (options.readOnly) {
        await requireMigratedSchema(database, schema);
      } else if (options.migrateOnStart) {
        await applySchemaMigrations(database, logger, schema);
      } else if (await hasPendingMigrations(database, schema)) {
        throw new MigrationError(
          `The database (${database.description}) has pending migrations and migrateOnStart is off: run "kernel db:migrate"`,
        );
      }
      if (options.integrityCheck) {
        const verification = container.cradle.chainVerification;
        const verified = verification.start(async () => {
          const height = await checkChainIntegrity(database.manager);
          logger.info({ height }, 'Stored chain verified');
          return height;
        });
        // Taken over: the check runs while that plugin boots, which awaits it before serving.
        if (verification.owner === undefined) await verified;
        else
          logger.debug({ by: verification.owner }, 'Stored chain check runs while its owner boots');
      }
    } catch (error) {
      await database.close();
      throw error;
    }
    database.startMonitoring();
    // VACUUM writes; on a replica the primary's own runs are replayed.
    if (!options.readOnly) container.cradle.statisticsRefresher.start();
    if (!database.isEmbedded) container.cradle.commitSignals.start();
  },
  async dispose({ container }) {
    await container.cradle.commitSignals.stop();
    await container.cradle.statisticsRefresher.stop();
    await container.cradle.database.close();
  },
});

/** A hot standby refuses writes and LISTEN: it needs `readOnly` and a primary to listen on. */
async function checkStandby(
  database: DatabaseConnection,
  options: DatabaseOptions,
  logger: Logger,
): Promise<void> {
  if (!(await database.isStandby())) return;
  const where = `The database (${database.description}) is a hot standby`;
  if (!options.readOnly) {
    throw new DatabaseError(
      `${where}, which refuses writes: set the database option readOnly (CORE_DB_READ_ONLY=true), as the api mode does`,
    );
  }
  if (!options.listen) {
    throw new DatabaseError(
      `${where}, which refuses LISTEN: set the database option listen (CORE_DB_LISTEN_URL) to a connection to its primary, for live data`,
    );
  }
  logger.info({ database: database.description }, 'Reading from a hot standby');
}

export default databasePlugin;
