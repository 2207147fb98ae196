import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createLogger, type Logger } from '@lni/kernel';
import { databaseOptions, type DatabaseOptions } from '../config.js';
import { Database } from '../connection/database.js';
import { applySchemaMigrations } from '../migrations/migrate.js';

const SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres' };

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
  readonly options: DatabaseOptions;
  drop(): Promise<void>;
}> {
  const name = `lni_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ ...SERVER, database: 'postgres' });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    options: databaseOptions({
      connection: { host: SERVER.host, port: SERVER.port, username: SERVER.user, database: name },
      retry: { attempts: 1 },
    }),
    async drop() {
      const client = new pg.Client({ ...SERVER, database: 'postgres' });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
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
