import type { Logger } from '@lni/kernel';
import type { DatabaseConnection } from '../connection/database.js';
import { MigrationError } from '../errors.js';
import { upgradeLegacyDatabase, type UpgradeProgress } from '../upgrade/legacy-upgrade.js';
import type { OwnedMigrations } from '../schema/schema-registry.js';
import { databaseSchema } from './index.js';
import { withMigrationLogger } from './migration-logger.js';
import { pendingMigrations, runMigrations } from './migration-runner.js';
import { detectSchemaState } from './schema-state.js';

export interface MigrateOptions {
  readonly logger: Logger;
  /** Transactions copied per committed batch of the 2.7 upgrade. */
  readonly batchRows?: number;
  readonly pauseBetweenBatchesMs?: number;
  readonly onProgress?: (progress: UpgradeProgress) => void;
  /** Stops the 2.7 upgrade between batches; nothing else stops on it. */
  readonly signal?: AbortSignal;
  /**
   * Told when the run is past the last point where `signal` stops it: the 2.7 upgrade has
   * copied its last batch (then the switch, the migrations and the vacuum run to the end), or
   * there was no 2.7 database (migrations only).
   */
  readonly onFinishing?: () => void;
  /** Every plugin's migrations, in dependency order; the database plugin's own by default. */
  readonly schema?: readonly OwnedMigrations[];
}

export interface MigrateResult {
  /** Transactions carried over from a 2.7 database; undefined when there was none. */
  readonly upgradedRows?: number;
  readonly applied: readonly string[];
}

/** Upgrades a 2.7 database if there is one, then applies every pending schema migration. */
export async function migrateDatabase(
  database: DatabaseConnection,
  options: MigrateOptions,
): Promise<MigrateResult> {
  const { logger } = options;
  let upgradedRows: number | undefined;
  if ((await detectSchemaState(database.manager)) === 'legacy') {
    logger.info({ database: database.description }, 'Upgrading a 2.7 database');
    upgradedRows = (
      await upgradeLegacyDatabase(database.dataSource, {
        logger,
        batchRows: options.batchRows ?? 50_000,
        pauseBetweenBatchesMs: options.pauseBetweenBatchesMs ?? 0,
        onProgress: options.onProgress,
        signal: options.signal,
        onLastBatchCopied: options.onFinishing,
      })
    ).rows;
  } else {
    options.onFinishing?.();
  }
  const applied = await applySchemaMigrations(database, logger, options.schema);
  if (upgradedRows !== undefined) {
    // A freshly filled table has no visibility map yet: without it every count reads the heap.
    await database.dataSource.query(
      'VACUUM ANALYZE blocks, transactions, transaction_parties, party_totals, ' +
        'party_pair_totals, wide_transaction_parties',
    );
    logger.info('Upgraded tables vacuumed and analysed');
  }
  return upgradedRows === undefined ? { applied } : { upgradedRows, applied };
}

/**
 * Applies pending migrations, plugin by plugin in the order of `schema` (the database plugin's
 * own by default); refuses a 2.7 database, which needs `kernel db:migrate`. Each migration is
 * logged at debug, the count at info.
 */
export async function applySchemaMigrations(
  database: DatabaseConnection,
  logger: Logger,
  schema: readonly OwnedMigrations[] = [databaseSchema],
): Promise<string[]> {
  if ((await detectSchemaState(database.manager)) === 'legacy') {
    throw new MigrationError(
      `The database (${database.description}) holds a 2.7 chain: stop the node and run "kernel db:migrate" to upgrade it first`,
    );
  }
  const applied = await withMigrationLogger(logger, () =>
    runMigrations(database.dataSource, schema, logger),
  );
  if (applied.length > 0) logger.info({ count: applied.length }, 'Migrations applied');
  return applied;
}

/** True when a migration is waiting (boot with `migrateOnStart: false` refuses then). */
export async function hasPendingMigrations(
  database: DatabaseConnection,
  schema: readonly OwnedMigrations[] = [databaseSchema],
): Promise<boolean> {
  if ((await detectSchemaState(database.manager)) === 'legacy') return true;
  return (await pendingMigrations(database.dataSource, schema)).length > 0;
}
