import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { ConfigError } from '@lni/kernel';
import type { DatabaseOptions } from '@lni/database';

const run = promisify(execFile);

/** A pg_dump program and its major version. */
export interface PgDump {
  readonly path: string;
  readonly major: number;
}

/**
 * The pg_dump to use for a server of major version `serverMajor`: LNI_PG_DUMP when set, else the
 * one on PATH, else Debian's /usr/lib/postgresql/<N>/bin ones. pg_dump refuses servers newer
 * than itself, so one at least as new as the server is needed; none → a ConfigError saying
 * what to install.
 */
export async function findPgDump(serverMajor: number): Promise<PgDump> {
  const candidates = process.env.LNI_PG_DUMP
    ? [process.env.LNI_PG_DUMP]
    : ['pg_dump', ...debianPgDumps()];
  const found: string[] = [];
  for (const path of candidates) {
    const major = await majorOf(path);
    if (major === undefined) continue;
    if (major >= serverMajor) return { path, major };
    found.push(`${path} is ${major}`);
  }
  throw new ConfigError(
    `No pg_dump of version ${serverMajor} or later (the server's) was found${found.length ? ` (${found.join(', ')})` : ''}: install postgresql-client-${serverMajor} or set LNI_PG_DUMP to its pg_dump`,
  );
}

function debianPgDumps(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => `${root}/${version}/bin/pg_dump`)
    .filter((path) => existsSync(path));
}

async function majorOf(path: string): Promise<number | undefined> {
  try {
    const { stdout } = await run(path, ['--version']);
    const match = /(\d+)(?:\.\d+)?/.exec(stdout);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs pg_dump in its custom format into `target` (one consistent snapshot of the database: it
 * reads in a single repeatable-read transaction, so the node may keep writing). `onBytes` is
 * told the file's size as it grows.
 */
export async function runPgDump(
  pgDump: PgDump,
  connection: DatabaseOptions['connection'],
  target: string,
  onBytes: (bytes: number) => void,
): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const args = ['--format=custom', '--no-password', `--file=${target}`];
  if (connection.url !== undefined) {
    args.push(`--dbname=${connection.url}`);
  } else {
    Object.assign(env, {
      PGHOST: connection.host ?? 'localhost',
      PGPORT: String(connection.port),
      PGUSER: connection.username,
      PGDATABASE: connection.database,
    });
    if (connection.password !== undefined) env.PGPASSWORD = connection.password;
  }
  const child = spawn(pgDump.path, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const timer = setInterval(() => {
    stat(target).then(
      (info) => onBytes(info.size),
      () => undefined,
    );
  }, 500);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) {
      throw new ConfigError(
        `pg_dump failed (exit ${String(code)}): ${errors.trim().split('\n')[0] ?? ''}`,
      );
    }
  } finally {
    clearInterval(timer);
  }
  onBytes((await stat(target)).size);
}
