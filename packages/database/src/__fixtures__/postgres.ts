import { createLogger, type Logger } from '@lni/kernel';
import { databaseOptions, type DatabaseOptions } from '../config.js';
import { Database } from '../connection/database.js';
import { applySchemaMigrations } from '../migrations/migrate.js';
import {
  createTestDatabase as createServerDatabase,
  type ServerConnection,
} from '../../../../test/support/postgres.js';

/** Why the Postgres-only tests skip, or undefined when they run. */
export const postgresSkipReason =
  process.env.LNI_TEST_POSTGRES === 'unavailable'
    ? 'PostgreSQL is unavailable (LNI_TEST_POSTGRES=unavailable)'
    : undefined;
if (postgresSkipReason) console.warn(`Skipping the PostgreSQL tests: ${postgresSkipReason}`);

export function quietLogger(): Logger {
  return createLogger({ level: 'fatal' });
}

/** A fresh `lni_test_<random>` database on the local server, dropped by `drop()`. */
export async function createTestDatabase(): Promise<{
  readonly name: string;
  /** Where it is, as an operator would name it (see `databaseEnv`). */
  readonly connection: ServerConnection;
  readonly options: DatabaseOptions;
  drop(): Promise<void>;
}> {
  const { connection, drop } = await createServerDatabase();
  return {
    name: connection.database,
    connection,
    options: databaseOptions({ connection, retry: { attempts: 1 } }),
    drop,
  };
}

export async function openDatabase(options: DatabaseOptions, dataDirectory = '/nonexistent') {
  const database = new Database({ logger: quietLogger(), databaseOptions: options, dataDirectory });
  await database.open();
  return database;
}

/** A fresh test database with the schema migrated; `dispose` closes and drops it. */
export async function openMigratedTestDatabase(): Promise<{
  readonly database: Database;
  dispose(): Promise<void>;
}> {
  const created = await createTestDatabase();
  let database: Database | undefined;
  const dispose = async () => {
    await database?.close();
    await created.drop();
  };
  try {
    database = await openDatabase(created.options);
    await applySchemaMigrations(database, quietLogger());
    return { database, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
