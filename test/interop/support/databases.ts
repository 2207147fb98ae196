import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { isLeftover, PREFIX } from './owner.js';

/**
 * The host's PostgreSQL. The test process reaches it on 127.0.0.1; nodes inside namespaces
 * cannot, so they use its Unix socket directory, which the shared filesystem makes visible.
 */
export const POSTGRES = {
  host: '127.0.0.1',
  port: 5432,
  user: 'postgres',
  socketDir: process.env.LNI_INTEROP_PG_SOCKET_DIR ?? '/var/run/postgresql',
};

/** Why nodes cannot use the host's PostgreSQL here, or undefined when they can. */
export function postgresSocketProblem(): string | undefined {
  const socket = join(POSTGRES.socketDir, `.s.PGSQL.${POSTGRES.port}`);
  return existsSync(socket)
    ? undefined
    : `no PostgreSQL socket at ${socket} (set LNI_INTEROP_PG_SOCKET_DIR)`;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    host: POSTGRES.host,
    port: POSTGRES.port,
    user: POSTGRES.user,
    database: 'postgres',
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database name of this harness: `lniop_<pid>_<tag>_<node>` (owner encoded for the sweep). */
export function databaseName(runId: string, node: string): string {
  return `${runId}_${node}`.replaceAll('-', '_');
}

export async function createDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((client) =>
    client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  );
}

/** Every database of this harness, of any run. */
export async function harnessDatabases(): Promise<string[]> {
  return admin(async (client) => {
    const result = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE '${PREFIX}\\_%'`,
    );
    return result.rows.map((row) => row.datname);
  });
}

/** Drops the databases of runs that are gone; returns their names. */
export async function sweepLeftoverDatabases(): Promise<string[]> {
  const leftovers = (await harnessDatabases()).filter((name) => isLeftover(name));
  for (const name of leftovers) await dropDatabase(name);
  return leftovers;
}
