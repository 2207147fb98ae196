import type { DatabaseConnection } from '../connection/database.js';
import { MigrationError } from '../errors.js';
import type { OwnedMigrations } from '../schema/schema-registry.js';
import { pendingMigrations } from './migration-runner.js';
import { detectSchemaState } from './schema-state.js';

/**
 * A read-only node cannot migrate: it needs every registered migration already applied by the
 * writer. Names the missing ones by plugin, so an operator knows which writer to upgrade.
 */
export async function requireMigratedSchema(
  database: DatabaseConnection,
  schema: readonly OwnedMigrations[],
): Promise<void> {
  const where = `The database (${database.description}) is read-only here`;
  if ((await detectSchemaState(database.manager)) === 'legacy') {
    throw new MigrationError(
      `${where} and holds a 2.7 chain: the writer has not migrated yet (run "kernel db:migrate" against the primary)`,
    );
  }
  const missing = await pendingMigrations(database.dataSource, schema);
  if (missing.length === 0) return;
  const byPlugin = new Map<string, string[]>();
  for (const { owner, name } of missing)
    byPlugin.set(owner, [...(byPlugin.get(owner) ?? []), name]);
  const list = [...byPlugin].map(([owner, names]) => `plugin '${owner}': ${names.join(', ')}`);
  throw new MigrationError(
    `${where} and lacks ${missing.length} migration(s): the writer has not migrated yet; start the core or relay node of this release against the primary first (missing: ${list.join('; ')})`,
  );
}
