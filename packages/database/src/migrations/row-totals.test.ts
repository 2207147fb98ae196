import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChain } from '../__fixtures__/chain.js';
import {
  createTestDatabase,
  openDatabase,
  postgresSkipReason,
  quietLogger,
} from '../__fixtures__/postgres.js';
import { databaseOptions } from '../config.js';
import type { Database } from '../connection/database.js';
import type { BlockWithTransactions } from '../records.js';
import { BlockStorage } from '../storage/block-storage.js';
import { RowTotals1764000000000 } from './1764000000000-row-totals.js';
import { applySchemaMigrations } from './migrate.js';

/** Blocks by two generators, transactions of four (typeGroup, type) groups. */
function mixedChain(blocks: number, from: number): BlockWithTransactions[] {
  return makeChain(blocks, 5, from, (height, sequence) => ({
    type: [0, 3, 6, 0, 1][sequence] as number,
    typeGroup: sequence === 4 ? 2 : 1,
    recipientId: sequence === 1 ? null : `ARecipient${height % 5}`,
  })).map((entry) => ({
    ...entry,
    block: {
      ...entry.block,
      generatorPublicKey: `02${String(entry.block.height % 2).repeat(64)}`,
    },
  }));
}

/** The local PostgreSQL server, and the embedded database a node without one runs on. */
const backends = {
  async postgres() {
    const created = await createTestDatabase();
    return { database: await openDatabase(created.options), drop: created.drop };
  },
  async embedded() {
    const directory = await mkdtemp(join(tmpdir(), 'lni-totals-'));
    return {
      database: await openDatabase(databaseOptions({}), directory),
      drop: () => rm(directory, { recursive: true, force: true }),
    };
  },
};

describe.each(
  Object.keys(backends).filter(
    (name) => name !== 'postgres' || !postgresSkipReason,
  ) as (keyof typeof backends)[],
)('row totals kept by triggers (%s)', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  let storage: BlockStorage;

  const query = async (sql: string) =>
    ((await database.manager.query(sql)) as Record<string, unknown>[]).map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)])),
    );
  /** The kept totals and a fresh count of the rows agree, group by group. */
  const expectTotalsMatchRows = async () => {
    expect(
      await query('SELECT type_group, type, count FROM transaction_totals ORDER BY 1, 2'),
    ).toEqual(
      await query(
        'SELECT type_group, type, count(*) AS count FROM transactions GROUP BY 1, 2 ORDER BY 1, 2',
      ),
    );
    expect(await query('SELECT generator_public_key, count FROM block_totals ORDER BY 1')).toEqual(
      await query(
        'SELECT generator_public_key, count(*) AS count FROM blocks GROUP BY 1 ORDER BY 1',
      ),
    );
  };

  beforeAll(async () => {
    ({ database, drop } = await backends[backend]());
    await applySchemaMigrations(database, quietLogger());
    storage = new BlockStorage({ database });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('follow every insert, a rollback to a height, a cascaded delete and a truncate', async () => {
    await storage.saveBlocks(mixedChain(30, 1));
    await storage.saveBlocks(mixedChain(10, 31));
    await expectTotalsMatchRows();
    expect(await query('SELECT sum(count) AS n FROM transaction_totals')).toEqual([{ n: '200' }]);

    await storage.deleteBlocksAbove(25);
    await expectTotalsMatchRows();
    // Blocks deleted on their own take their transactions with them (ON DELETE CASCADE).
    await database.manager.query('DELETE FROM blocks WHERE height > 12');
    await expectTotalsMatchRows();
    expect(await query('SELECT sum(count) AS n FROM block_totals')).toEqual([{ n: '12' }]);

    // A failed write leaves the totals as they were.
    const [good, bad] = mixedChain(2, 13) as [BlockWithTransactions, BlockWithTransactions];
    const [repeated, ...rest] = bad.transactions;
    const clash = { ...repeated!, id: good.transactions[0]!.id };
    await expect(
      storage.saveBlocks([good, { ...bad, transactions: [clash, ...rest] }]),
    ).rejects.toThrow();
    await expectTotalsMatchRows();

    await database.manager.query('TRUNCATE blocks CASCADE');
    expect(await query('SELECT count(*) AS n FROM transaction_totals')).toEqual([{ n: '0' }]);
    expect(await query('SELECT count(*) AS n FROM block_totals')).toEqual([{ n: '0' }]);
  });

  it('the migration counts the rows stored before it', async () => {
    const migration = new RowTotals1764000000000();
    // Through a transaction's own runner: the embedded database has a single connection.
    await database.transaction((manager) => migration.down(manager.queryRunner!));
    await storage.saveBlocks(mixedChain(20, 1));
    await database.transaction((manager) => migration.up(manager.queryRunner!));
    await expectTotalsMatchRows();
    expect(await query('SELECT sum(count) AS n FROM transaction_totals')).toEqual([{ n: '100' }]);
  });
});
