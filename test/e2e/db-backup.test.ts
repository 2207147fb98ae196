import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { PGlite } from '@electric-sql/pglite';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { startLedgerNode, type LedgerNode } from '../support/ledger-node.js';
import { ApiClient, startNode, stopNode } from '../support/node-harness.js';
import {
  createTestDatabase,
  databaseEnv,
  postgresSkipReason,
  type ServerConnection,
} from '../support/postgres.js';

const run = promisify(execFile);

/** Every table's rows as one digest per table (rows ordered by their text), by table name. */
async function digests(query: (sql: string) => Promise<{ rows: unknown[] }>) {
  const tables = (
    await query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
    )
  ).rows as { name: string }[];
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = (
      await query(
        `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS d FROM "${name}" t`,
      )
    ).rows as { d: string }[];
    result[name] = row?.d ?? '';
  }
  return result;
}

async function serverDigests(connection: ServerConnection) {
  const client = new pg.Client({ ...connection, user: connection.username });
  await client.connect();
  try {
    return await digests((sql) => client.query(sql));
  } finally {
    await client.end();
  }
}

describe.skipIf(postgresSkipReason)('kernel db:backup of a PostgreSQL node', () => {
  let node: LedgerNode;
  let root: string;
  let copy: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-backup-'));
    node = await startLedgerNode();
    await writeFile(
      join(node.kernel.paths.config, '.env'),
      Object.entries(databaseEnv(node.databaseConnection))
        .map(([key, value]) => `${key}=${value}`)
        .join('\n'),
    );
    for (let block = 0; block < 3; block += 1) await node.forge([]);
  });
  afterAll(async () => {
    await node?.stop();
    await copy?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('dumps the running node; pg_restore into a new database gives the same rows', async () => {
    const file = join(root, 'node.pgdump');
    const backup = runKernel([
      'db:backup',
      '--config',
      node.kernel.paths.config,
      '--data',
      node.kernel.paths.data,
      '--to',
      file,
    ]);
    expect((await backup.exited()).code, backup.stderr()).toBe(0);
    expect(backup.stdout()).toContain(`to ${file}; to restore into a new database`);

    await node.kernel.stop();
    copy = await createTestDatabase();
    const { connection } = copy;
    await run('pg_restore', [
      '--no-owner',
      '-h',
      connection.host,
      '-p',
      String(connection.port),
      '-U',
      connection.username,
      '-d',
      connection.database,
      file,
    ]);
    const original = await serverDigests(node.databaseConnection);
    expect(Object.keys(original).length).toBeGreaterThan(5);
    expect(await serverDigests(connection)).toEqual(original);
  }, 60_000);
});

describe('kernel db:backup of an embedded-database node', () => {
  let root: string;
  let node: KernelProcess | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-backup-embedded-'));
  });
  afterAll(async () => {
    await stopNode(node);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('refuses while the node runs; stopped, its dump extracts into a working database', async () => {
    const dirs = { config: join(root, 'config'), data: join(root, 'data') };
    const apiPort = await freePort();
    node = startNode('core', dirs, {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_PORT: String(await freePort()),
    });
    await eventually(
      () => new ApiClient(`http://127.0.0.1:${apiPort}/api`).get('/node/status'),
      60_000,
      'the API',
    );
    const args = ['db:backup', '--config', dirs.config, '--data', dirs.data];
    const file = join(root, 'embedded.tar.gz');
    const running = runKernel([...args, '--to', file]);
    expect((await running.exited()).code).toBe(1);
    expect(running.stderr().trim()).toMatch(
      /^error: The embedded database at .* is in use by process \d+; stop it first$/,
    );

    expect(await stopNode(node)).toBe(0);
    const backup = runKernel([...args, '--to', file]);
    expect((await backup.exited()).code, backup.stderr()).toBe(0);
    expect(backup.stdout()).toContain('tar xzf');

    const restored = join(root, 'restored', 'database');
    await mkdir(restored, { recursive: true });
    await run('tar', ['xzf', file, '-C', restored]);
    const original = await PGlite.create(join(dirs.data, 'database'));
    const originalDigests = await digests((sql) => original.query(sql));
    await original.close();
    const copy = await PGlite.create(restored);
    try {
      expect(Object.keys(originalDigests).length).toBeGreaterThan(5);
      expect(await digests((sql) => copy.query(sql))).toEqual(originalDigests);
    } finally {
      await copy.close();
    }
  }, 120_000);
});
