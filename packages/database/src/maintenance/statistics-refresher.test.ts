import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  openMigratedTestDatabase,
  postgresSkipReason,
  quietLogger,
} from '../__fixtures__/postgres.js';
import { makeChain } from '../__fixtures__/chain.js';
import type { Database } from '../connection/database.js';
import { BlockStorage } from '../storage/block-storage.js';
import { StatisticsRefresher } from './statistics-refresher.js';

describe.skipIf(postgresSkipReason)('StatisticsRefresher on PostgreSQL', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await openMigratedTestDatabase());
  });
  afterAll(async () => {
    await dispose?.();
  });

  /** A column of the transactions table's row in pg_class. */
  const catalog = async (column: 'reltuples' | 'relallvisible') =>
    Number(
      (
        (await database.manager.query(
          `SELECT ${column} AS value FROM pg_class WHERE relname = 'transactions'`,
        )) as { value: number }[]
      )[0]?.value,
    );
  // What the planner believes the table holds: -1 until it was first analyzed.
  const plannerRows = () => catalog('reltuples');
  // Pages the visibility map marks all-visible (index-only scans skip the heap for them).
  const allVisiblePages = () => catalog('relallvisible');

  it('vacuums and analyzes the tables once the chain has grown by half, and not before', async () => {
    const storage = new BlockStorage({ database });
    const refresher = new StatisticsRefresher({ database, logger: quietLogger(), intervalMs: 0 });
    expect(await plannerRows()).toBe(-1);

    await storage.saveBlocks(makeChain(200, 10, 1));
    expect(await allVisiblePages()).toBe(0);
    await refresher.check();
    expect(await plannerRows()).toBe(2_000);
    expect(await allVisiblePages()).toBeGreaterThan(0);

    await storage.saveBlocks(makeChain(50, 10, 201));
    await refresher.check();
    expect(await plannerRows()).toBe(2_000);

    await storage.saveBlocks(makeChain(60, 10, 251));
    await refresher.check();
    expect(await plannerRows()).toBe(3_100);
  });

  it("vacuums the plugins' churning tables at every check, so rows that left free their space", async () => {
    // A plugin's queue table, as the pool's: rows added then deleted.
    await database.manager.query('CREATE TABLE scratch_queue (id int PRIMARY KEY, body bytea)');
    const refresher = new StatisticsRefresher({
      database,
      logger: quietLogger(),
      intervalMs: 0,
      churningTables: () => ['scratch_queue'],
    });
    await database.manager.query(
      "INSERT INTO scratch_queue SELECT i, decode(repeat('ab', 150), 'hex') FROM generate_series(1, 2000) i",
    );
    await database.manager.query('DELETE FROM scratch_queue');
    const size = async () =>
      Number(
        (
          (await database.manager.query(`SELECT pg_relation_size('scratch_queue') AS bytes`)) as {
            bytes: string;
          }[]
        )[0]?.bytes,
      );
    expect(await size()).toBeGreaterThan(0);
    await refresher.check();
    expect(await size()).toBe(0);
  });
});

describe('StatisticsRefresher started with a node', () => {
  it('leaves the first check until after boot (the restart loads its state meanwhile), then checks every interval', async () => {
    vi.useFakeTimers();
    try {
      const statements: string[] = [];
      const database = {
        manager: {
          query: (sql: string) => {
            statements.push(sql);
            return Promise.resolve([{ height: 0 }]);
          },
        },
      } as unknown as Database;
      const refresher = new StatisticsRefresher({
        database,
        logger: quietLogger(),
        intervalMs: 60_000,
      });
      refresher.start();
      await vi.advanceTimersByTimeAsync(9_000);
      expect(statements).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(statements).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(statements).toHaveLength(2);
      await refresher.stop();
      await vi.advanceTimersByTimeAsync(120_000);
      expect(statements).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
