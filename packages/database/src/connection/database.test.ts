import { describe, expect, it } from 'vitest';
import { createTestDatabase, postgresSkipReason, quietLogger } from '../__fixtures__/postgres.js';
import { startProxy } from '../__fixtures__/tcp-proxy.js';
import { databaseOptions } from '../config.js';
import { DatabaseError } from '../errors.js';
import { statementName } from '../query/prepared.js';
import { Database } from './database.js';

describe.skipIf(postgresSkipReason)('Database on PostgreSQL', () => {
  it('waits for a server that is unreachable at start, then connects', async () => {
    const created = await createTestDatabase();
    const proxy = await startProxy(5432);
    await proxy.cut();
    const database = new Database({
      logger: quietLogger(),
      databaseOptions: databaseOptions({
        connection: { host: '127.0.0.1', port: proxy.port, database: created.name },
        retry: { attempts: 20, initialDelayMs: 50, maxDelayMs: 200 },
      }),
      dataDirectory: '/nonexistent',
    });
    try {
      const opening = database.open();
      setTimeout(() => void proxy.restore(), 400);
      await opening;
      expect(await database.manager.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(database.available).toBe(true);
    } finally {
      await database.close();
      await proxy.close();
      await created.drop();
    }
  });

  it('names the database it could not reach after the last attempt', async () => {
    const proxy = await startProxy(5432);
    await proxy.cut();
    const database = new Database({
      logger: quietLogger(),
      databaseOptions: databaseOptions({
        connection: { host: '127.0.0.1', port: proxy.port, database: 'nowhere' },
        retry: { attempts: 2, initialDelayMs: 10 },
      }),
      dataDirectory: '/nonexistent',
    });
    const failure = database.open();
    await expect(failure).rejects.toBeInstanceOf(DatabaseError);
    await expect(failure).rejects.toThrow(`127.0.0.1:${proxy.port}/nowhere`);
    expect(database.available).toBe(false);
  });

  it('reads one snapshot, bounded in time, and returns its connection clean', async () => {
    const { database, created } = await notesDatabase();
    try {
      // A row committed between two reads of the snapshot is seen by neither.
      const seen = await database.readSnapshot(1_000, async (manager) => {
        const before = await count(manager);
        await database.manager.query('INSERT INTO notes VALUES (1)');
        return [before, await count(manager)];
      });
      expect(seen).toEqual([0, 0]);
      // Read only: a write inside fails, and so does a statement past the time limit.
      await expect(
        database.readSnapshot(1_000, (manager) => manager.query('INSERT INTO notes VALUES (2)')),
      ).rejects.toMatchObject({ driverError: { code: '25006' } });
      await expect(
        database.readSnapshot(50, (manager) => manager.query('SELECT pg_sleep(1)')),
      ).rejects.toMatchObject({ driverError: { code: '57014' } });
      // Every connection is back in the pool outside any transaction.
      await expect.poll(() => openTransactions(database, created.name)).toBe(0);
      expect(await count(database.manager)).toBe(1);
    } finally {
      await database.close();
      await created.drop();
    }
  });

  it('runs a search statement read-only, without JIT, each within its own time limit, on its own connections', async () => {
    const { database, created } = await notesDatabase();
    try {
      await database.manager.query('INSERT INTO notes VALUES (1), (2)');
      expect(
        await database.readStatement(1_000, 'SELECT sum(n) AS total FROM notes WHERE n > $1', [0]),
      ).toEqual([{ total: '3' }]);
      await expect(
        database.readStatement(1_000, 'INSERT INTO notes VALUES ($1)', [3]),
      ).rejects.toMatchObject({ code: '25006' });
      // Never compiled (JIT): that alone would cost more than a search's usual run.
      expect(await database.readStatement(1_000, 'SHOW jit', [])).toEqual([{ jit: 'off' }]);
      // Each statement gets the limit it asks for, whichever connection it lands on.
      for (let round = 0; round < 3; round += 1) {
        await expect(database.readStatement(50, 'SELECT pg_sleep(0.5)', [])).rejects.toMatchObject({
          code: '57014',
        });
        await expect(
          database.readStatement(2_000, 'SELECT 1 AS done FROM pg_sleep(0.1)', []),
        ).resolves.toEqual([{ done: 1 }]);
      }
      // Writers holding every connection of their pool do not hold searches up.
      const writers = [0, 1].map(() => database.dataSource.createQueryRunner());
      for (const writer of writers) await writer.startTransaction();
      try {
        expect(await database.readStatement(1_000, 'SELECT count(*) AS n FROM notes', [])).toEqual([
          { n: '2' },
        ]);
      } finally {
        for (const writer of writers) {
          await writer.rollbackTransaction();
          await writer.release();
        }
      }
      expect(await count(database.manager)).toBe(2);
    } finally {
      await database.close();
      await created.drop();
    }
    // Closing the database closes the search connections too.
    await expect(database.readStatement(1_000, 'SELECT 1', [])).rejects.toThrow();
  });

  it('plans a statement marked generic once per connection, and leaves the others to PostgreSQL', async () => {
    const { database, created } = await notesDatabase(1);
    try {
      await database.manager.query('INSERT INTO notes SELECT generate_series(1, 1000)');
      await database.manager.query('CREATE INDEX notes_n ON notes (n)');
      const page = 'SELECT n FROM notes WHERE n > $1 ORDER BY n LIMIT $2';
      const other = 'SELECT n FROM notes WHERE n < $1 ORDER BY n DESC LIMIT $2';
      for (let run = 0; run < 8; run += 1) {
        expect(
          await database.readStatement(1_000, page, [run * 100, 2], { genericPlan: true }),
        ).toEqual([{ n: run * 100 + 1 }, { n: run * 100 + 2 }]);
        // Interleaved on the same connection: the mode follows each statement.
        await database.readStatement(1_000, other, [run * 100 + 10, 1]);
      }
      const plans = async (text: string) =>
        (
          await database.readStatement<{ generic_plans: string; custom_plans: string }>(
            1_000,
            'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1',
            [statementName(text)],
          )
        ).map((row) => [Number(row.generic_plans), Number(row.custom_plans)]);
      expect(await plans(page)).toEqual([[8, 0]]);
      // PostgreSQL's own choice plans the first five runs for their values.
      const [[, custom]] = (await plans(other)) as [[number, number]];
      expect(custom).toBeGreaterThanOrEqual(5);
    } finally {
      await database.close();
      await created.drop();
    }
  });
});

/** A database of its own with an empty table `notes (n integer)`, opened with `poolSize` connections. */
async function notesDatabase(poolSize = 2) {
  const created = await createTestDatabase();
  const database = new Database({
    logger: quietLogger(),
    databaseOptions: databaseOptions({
      connection: { host: '127.0.0.1', port: 5432, database: created.name },
      poolSize,
    }),
    dataDirectory: '/nonexistent',
  });
  try {
    await database.open();
    await database.manager.query('CREATE TABLE notes (n integer)');
  } catch (error) {
    await database.close();
    await created.drop();
    throw error;
  }
  return { database, created };
}

/** The rows of `notes`, as `manager` (a snapshot's, or the pool's) sees them. */
async function count(manager: Database['manager']): Promise<number> {
  return Number((await manager.query('SELECT count(*) AS n FROM notes'))[0].n);
}

/** Connections to `name` other than the asking one that are inside a transaction. */
async function openTransactions(database: Database, name: string): Promise<number> {
  const [row] = await database.manager.query(
    `SELECT count(*) AS n FROM pg_stat_activity
     WHERE datname = $1 AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
    [name],
  );
  return Number(row.n);
}
