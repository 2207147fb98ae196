import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChain } from '../__fixtures__/chain.js';
import {
  createTestDatabase,
  openDatabase,
  postgresSkipReason,
  quietLogger,
} from '../__fixtures__/postgres.js';
import type { Database } from '../connection/database.js';
import { applySchemaMigrations } from '../migrations/migrate.js';
import { BlockStorage } from '../storage/block-storage.js';
import { StatisticsRefresher } from './statistics-refresher.js';

describe.skipIf(postgresSkipReason)('StatisticsRefresher on PostgreSQL', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    database = await openDatabase(created.options);
    await applySchemaMigrations(database, quietLogger());
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  // What the planner believes the table holds: -1 until it was first analyzed.
  const plannerRows = async () =>
    Number(
      (
        (await database.manager.query(
          "SELECT reltuples FROM pg_class WHERE relname = 'transactions'",
        )) as { reltuples: number }[]
      )[0]?.reltuples,
    );

  // Pages the visibility map marks all-visible (index-only scans skip the heap for them).
  const allVisiblePages = async () =>
    Number(
      (
        (await database.manager.query(
          "SELECT relallvisible FROM pg_class WHERE relname = 'transactions'",
        )) as { relallvisible: number }[]
      )[0]?.relallvisible,
    );

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
});
