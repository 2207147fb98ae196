import { execFile, execFileSync } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { eventually, freePort } from './free-port.js';
import type { ServerConnection } from './postgres.js';

const run = promisify(execFile);
const BIN = process.env.LNI_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why the replica tests skip: they need PostgreSQL's server binaries and to run them. */
export const replicaSkipReason =
  process.env.LNI_TEST_POSTGRES === 'unavailable'
    ? 'PostgreSQL is unavailable'
    : hasBinaries()
      ? undefined
      : `no PostgreSQL binaries in ${BIN} (set LNI_TEST_PG_BIN)`;

export type ReplicaServer = 'primary' | 'standby';

/** A private primary and its streaming hot standby, made for one test file. */
export interface PgReplica {
  readonly directory: string;
  /** The `postgres` database of each server, as the node's connection options name it. */
  readonly primary: ServerConnection;
  readonly standby: ServerConnection;
  stop(server: ReplicaServer): Promise<void>;
  start(server: ReplicaServer): Promise<void>;
  restart(server: ReplicaServer): Promise<void>;
  /** Resolves once the standby streams from the primary again. */
  streaming(): Promise<void>;
  /** Stops both servers (immediately) and deletes their directories; safe to call twice. */
  remove(): Promise<void>;
}

function hasBinaries(): boolean {
  try {
    execFileSync(join(BIN, 'pg_ctl'), ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL refuses to run as root: run its tools as the `postgres` user then. */
function asServerUser(command: string, args: readonly string[]): [string, string[]] {
  const tool = join(BIN, command);
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', tool, ...args]]
    : [tool, [...args]];
}

async function tool(command: string, args: readonly string[]): Promise<void> {
  const [file, argv] = asServerUser(command, args);
  try {
    await run(file, argv, { timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`);
  }
}

export interface PgReplicaOptions {
  /**
   * PostgreSQL's own durability settings (fsync, synchronous commit), as an operator runs them:
   * for benchmarks of latency from a commit to the standby. Tests leave it off for speed.
   */
  readonly durable?: boolean;
}

/**
 * initdb a primary (wal_level=replica, trust on 127.0.0.1) on a free port, pg_basebackup -R a
 * standby from it on another, start both and wait until the standby streams. Each lives in its
 * own directory under one temporary directory; `remove()` stops both and deletes it, and a
 * process that exits without calling it stops the servers anyway.
 */
export async function startPgReplica(options: PgReplicaOptions = {}): Promise<PgReplica> {
  const durability = options.durable ? '' : FAST_UNSAFE;
  const directory = await mkdtemp(join(tmpdir(), 'lni-pg-replica-'));
  const dirs = { primary: join(directory, 'primary'), standby: join(directory, 'standby') };
  const ports = { primary: await freePort(), standby: await freePort() };
  let removed = false;
  const stopAll = () => {
    for (const server of ['standby', 'primary'] as const) {
      const [file, argv] = asServerUser('pg_ctl', ['-D', dirs[server], '-m', 'immediate', 'stop']);
      try {
        execFileSync(file, argv, { stdio: 'ignore' });
      } catch {
        // not running
      }
    }
  };
  process.once('exit', stopAll);
  const remove = async () => {
    if (removed) return;
    removed = true;
    process.removeListener('exit', stopAll);
    stopAll();
    await rm(directory, { recursive: true, force: true });
  };
  const start = (server: ReplicaServer) =>
    tool('pg_ctl', ['-D', dirs[server], '-l', join(directory, `${server}.log`), '-w', 'start']);
  const stop = (server: ReplicaServer) =>
    tool('pg_ctl', ['-D', dirs[server], '-m', 'fast', '-w', 'stop']);
  const connection = (server: ReplicaServer): ServerConnection => ({
    host: '127.0.0.1',
    port: ports[server],
    username: 'postgres',
    database: 'postgres',
  });
  const streaming = async () => {
    await eventually(
      async () => {
        const rows = await query(
          connection('primary'),
          "SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'",
        );
        return rows.length > 0 ? true : undefined;
      },
      30_000,
      'the standby to stream from the primary',
    );
  };
  try {
    if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', directory]);
    await tool('initdb', ['-D', dirs.primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    await appendFile(
      join(dirs.primary, 'postgresql.conf'),
      serverSettings(ports.primary, directory) +
        durability +
        'wal_level = replica\nmax_wal_senders = 5\n',
    );
    await start('primary');
    await tool('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres'],
      ...['-D', dirs.standby, '-R', '-X', 'stream'],
    ]);
    // The copied postgresql.conf names the primary's port; the auto file is read after it.
    await appendFile(
      join(dirs.standby, 'postgresql.auto.conf'),
      serverSettings(ports.standby, directory) + durability,
    );
    await start('standby');
    await streaming();
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    directory,
    primary: connection('primary'),
    standby: connection('standby'),
    start,
    stop,
    restart: async (server) => {
      await stop(server);
      await start(server);
    },
    streaming,
    remove,
  };
}

/** Settings for a throwaway test server: its port, small memory, hot standby reads. */
function serverSettings(port: number, socketDirectory: string): string {
  return [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${socketDirectory}'`,
    'shared_buffers = 32MB',
    'max_connections = 60',
    'hot_standby = on',
    '',
  ].join('\n');
}

/**
 * No durability, for tests: nothing is fsynced, and a commit returns before its WAL is written,
 * which also delays its streaming to the standby by up to three `wal_writer_delay`s (600 ms).
 */
const FAST_UNSAFE = ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off', ''].join(
  '\n',
);

/** One statement on a server of the pair, on its own connection. */
export async function query<Row = Record<string, unknown>>(
  connection: ServerConnection,
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({
    host: connection.host,
    port: connection.port,
    user: connection.username,
    database: connection.database,
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}
