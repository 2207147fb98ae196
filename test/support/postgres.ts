import { randomBytes } from 'node:crypto';
import pg from 'pg';

const SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres' };

/** Why tests that need the local PostgreSQL skip (the CI script sets this only when it cannot start it). */
export const postgresSkipReason =
  process.env.LNI_TEST_POSTGRES === 'unavailable' ? 'PostgreSQL is unavailable' : undefined;

/** Runs one statement on the local server's maintenance database, as an operator would. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ ...SERVER, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A database on the local server, as the node's `CORE_DB_*` variables name it. */
export interface ServerConnection {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly database: string;
}

/** Just the connection of a server (one with more fields, such as a private cluster), as the
 * database plugin's `connection` and `listen` options take it (they refuse unknown keys). */
export function connectionOptions(server: ServerConnection): ServerConnection {
  return {
    host: server.host,
    port: server.port,
    database: server.database,
    username: server.username,
  };
}

/** A fresh database on the local server for one test file; `drop()` removes it. */
export async function createTestDatabase(): Promise<{
  readonly connection: ServerConnection;
  drop(): Promise<void>;
}> {
  const name = `lni_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return {
    connection: { host: SERVER.host, port: SERVER.port, username: SERVER.user, database: name },
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The local server's database `name`, created when missing; `drop()` keeps it (a bench reuses it). */
export async function keptTestDatabase(name: string): Promise<{
  readonly connection: ServerConnection;
  drop(): Promise<void>;
}> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const client = new pg.Client({ ...SERVER, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return {
    connection: { host: SERVER.host, port: SERVER.port, username: SERVER.user, database: name },
    drop: async () => {},
  };
}

/** The `CORE_DB_*` variables that point a `kernel start` process at a test database. */
export function databaseEnv(connection: ServerConnection): Record<string, string> {
  return {
    CORE_DB_HOST: connection.host,
    CORE_DB_PORT: String(connection.port),
    CORE_DB_USERNAME: connection.username,
    CORE_DB_DATABASE: connection.database,
  };
}
