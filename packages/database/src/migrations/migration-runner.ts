import type { Logger } from '@lni/kernel';
import type { DataSource } from 'typeorm';
import { MigrationError } from '../errors.js';
import { MIGRATIONS_TABLE } from '../connection/data-source.js';
import {
  migrationName,
  migrationTimestamp,
  type MigrationClass,
  type OwnedMigrations,
} from '../schema/schema-registry.js';

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
  source: DataSource,
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
  await source.query(
    `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
       id SERIAL PRIMARY KEY,
       timestamp bigint NOT NULL,
       name character varying NOT NULL
     )`,
  );
  const pending = await pendingMigrations(source, owners);
  const applied: string[] = [];
  const runner = source.createQueryRunner();
  try {
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
  } finally {
    await runner.release();
  }
  return applied;
}

async function appliedNames(source: DataSource): Promise<Set<string>> {
  const [table] = (await source.query('SELECT to_regclass($1) AS oid', [MIGRATIONS_TABLE])) as {
    oid: string | null;
  }[];
  if (!table?.oid) return new Set();
  const rows = (await source.query(`SELECT name FROM ${MIGRATIONS_TABLE}`)) as { name: string }[];
  return new Set(rows.map((row) => row.name));
}
