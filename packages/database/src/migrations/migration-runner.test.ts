import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createTestDatabase,
  openDatabase,
  postgresSkipReason,
  quietLogger,
} from '../__fixtures__/postgres.js';
import { databaseOptions } from '../config.js';
import type { Database } from '../connection/database.js';
import { MIGRATIONS_TABLE } from '../connection/data-source.js';
import { runMigrations } from './migration-runner.js';

/** Slow enough that two unlocked runners would both find it pending and both run it. */
class SlowTable1799000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SELECT pg_sleep(0.3)');
    await runner.query('CREATE TABLE slow_table (id int)');
    await runner.query('CREATE TABLE IF NOT EXISTS runs (name text)');
    await runner.query(`INSERT INTO runs VALUES ('slow')`);
  }
  async down(): Promise<void> {}
}

class NextTable1799000000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE next_table (id int)');
    await runner.query(`INSERT INTO runs VALUES ('next')`);
  }
  async down(): Promise<void> {}
}

const owners = [{ owner: 'test', migrations: [SlowTable1799000000000, NextTable1799000000001] }];

async function recorded(database: Database): Promise<string[]> {
  const rows = (await database.manager.query(
    `SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`,
  )) as { name: string }[];
  return rows.map((row) => row.name);
}

async function runs(database: Database): Promise<string[]> {
  const rows = (await database.manager.query('SELECT name FROM runs ORDER BY name')) as {
    name: string;
  }[];
  return rows.map((row) => row.name);
}

describe.skipIf(postgresSkipReason)('migration runner on PostgreSQL', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('lets two processes migrate one database at once: each migration applied once, both succeed', async () => {
    const created = await createTestDatabase();
    cleanup.push(created.drop);
    // Two connections pools, as a core and `kernel db:migrate` would have.
    const first = await openDatabase(created.options);
    cleanup.push(() => first.close());
    const second = await openDatabase(created.options);
    cleanup.push(() => second.close());

    const [appliedByFirst, appliedBySecond] = await Promise.all([
      runMigrations(first.dataSource, owners, quietLogger()),
      runMigrations(second.dataSource, owners, quietLogger()),
    ]);

    // One of them applied both, the other waited and found nothing pending.
    expect([appliedByFirst, appliedBySecond].map((applied) => applied.length).sort()).toEqual([
      0, 2,
    ]);
    expect(await recorded(first)).toEqual(['SlowTable1799000000000', 'NextTable1799000000001']);
    expect(await runs(first)).toEqual(['next', 'slow']);
  });

  it('releases the lock when a migration fails, so the next run goes on', async () => {
    const created = await createTestDatabase();
    cleanup.push(created.drop);
    const database = await openDatabase(created.options);
    cleanup.push(() => database.close());
    class Broken1799000000002 implements MigrationInterface {
      async up(runner: QueryRunner): Promise<void> {
        await runner.query('SELECT * FROM no_such_table');
      }
      async down(): Promise<void> {}
    }

    await expect(
      runMigrations(
        database.dataSource,
        [{ owner: 'test', migrations: [Broken1799000000002] }],
        quietLogger(),
      ),
    ).rejects.toThrow(/Broken1799000000002 of plugin 'test' failed/);
    const other = await openDatabase(created.options);
    cleanup.push(() => other.close());
    await expect(runMigrations(other.dataSource, owners, quietLogger())).resolves.toHaveLength(2);
  });
});

describe('migration runner on the embedded database (one connection)', () => {
  it('takes the lock and applies the migrations on its single connection', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'lni-runner-'));
    const database = await openDatabase(databaseOptions({}), directory);
    try {
      expect(await runMigrations(database.dataSource, owners, quietLogger())).toHaveLength(2);
      expect(await runMigrations(database.dataSource, owners, quietLogger())).toEqual([]);
      expect(await runs(database)).toEqual(['next', 'slow']);
    } finally {
      await database.close();
      await rm(directory, { recursive: true, force: true });
    }
    // A new embedded database runs initdb in WebAssembly: seconds alone, more beside other suites.
  }, 120_000);
});
