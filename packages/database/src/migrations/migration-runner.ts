import type { Logger } from '@lni/kernel';
import type { DataSource, QueryRunner } from 'typeorm';
import { MigrationError } from '../errors.js';
import { MIGRATIONS_TABLE } from '../connection/data-source.js';
import {
  migrationName,
  migrationTimestamp,
  type MigrationClass,
  type OwnedMigrations,
} from '../schema/schema-registry.js';

/**
 * The key of the session-level advisory lock held while migrations run (ASCII "LNIMIGRA"), so
 * that two processes migrating one database (a core and `kernel db:migrate`, two API nodes) take
 * turns: the second waits, then finds nothing pending.
 */
export const MIGRATION_LOCK_KEY = 0x4c4e494d49475241n;

/** What the runner reads with: the pool, or the one connection that holds the lock. */
interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** A migration not yet recorded in `lni_migrations`, with the plugin that owns it. */
interface PendingMigration {
  readonly owner: string;
  readonly name: string;
  readonly migration: MigrationClass;
}

/**
 * The migrations of `owners` not yet applied, owner by owner in the given order. Applied ones
 * are known by name only, as TypeORM recorded them, so a migration that moved to another
 * plugin under its old name is not run again.
 */
export async function pendingMigrations(
  source: Queryable,
  owners: readonly OwnedMigrations[],
): Promise<PendingMigration[]> {
  const applied = await appliedNames(source);
  return owners.flatMap(({ owner, migrations }) =>
    migrations
      .map((migration) => ({ owner, name: migrationName(migration), migration }))
      .filter(({ name }) => !applied.has(name)),
  );
}

/**
 * Applies each pending migration in its own transaction and records it as TypeORM did (same
 * table and columns), so databases made before the migrations moved to their plugins go on.
 * Returns the names applied, in order.
 */
export async function runMigrations(
  source: DataSource,
  owners: readonly OwnedMigrations[],
  logger: Logger,
): Promise<string[]> {
  // Everything on one connection: the advisory lock belongs to it, and an embedded PGlite
  // serves a single connection, so the pool would wait for this one.
  const runner = source.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      return await runPending(runner, owners, logger);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    await runner.release();
  }
}

/** Under the lock: what is pending now (another process may just have applied it), applied. */
async function runPending(
  runner: QueryRunner,
  owners: readonly OwnedMigrations[],
  logger: Logger,
): Promise<string[]> {
  await runner.query(
    `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
       id SERIAL PRIMARY KEY,
       timestamp bigint NOT NULL,
       name character varying NOT NULL
     )`,
  );
  const pending = await pendingMigrations(runner, owners);
  const applied: string[] = [];
  for (const { owner, name, migration } of pending) {
    const instance = new migration();
    await runner.startTransaction();
    try {
      await instance.up(runner);
      await runner.query(`INSERT INTO ${MIGRATIONS_TABLE} (timestamp, name) VALUES ($1, $2)`, [
        migrationTimestamp(migration),
        name,
      ]);
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction().catch(() => undefined);
      throw new MigrationError(
        `migration ${name} of plugin '${owner}' failed: ${(error as Error).message}`,
        { cause: error },
      );
    }
    logger.debug({ migration: name, plugin: owner }, 'Migration applied');
    applied.push(name);
  }
  return applied;
}

async function appliedNames(source: Queryable): Promise<Set<string>> {
  const [table] = (await source.query('SELECT to_regclass($1) AS oid', [MIGRATIONS_TABLE])) as {
    oid: string | null;
  }[];
  if (!table?.oid) return new Set();
  const rows = (await source.query(`SELECT name FROM ${MIGRATIONS_TABLE}`)) as { name: string }[];
  return new Set(rows.map((row) => row.name));
}
