import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@lni/kernel';
import {
  applySchemaMigrations,
  BlockStorage,
  Database,
  databaseOptions,
  databaseSchema,
  type DatabaseOptions,
} from '@lni/database';
// The database package's test chain: blocks whose transactions the pool must forget.
import { makeChain } from '../../../database/src/__fixtures__/chain.js';
import { createTestDatabase, postgresSkipReason } from '../../../../test/support/postgres.js';
import { PoolStorage, type StoredPoolTransaction } from './pool-storage.js';
import { stateSchema } from './state-schema.js';

const quietLogger = () => createLogger({ level: 'fatal' });

async function openDatabase(options: DatabaseOptions, dataDirectory: string): Promise<Database> {
  const database = new Database({ logger: quietLogger(), databaseOptions: options, dataDirectory });
  await database.open();
  return database;
}

/** Where a node keeps its pool: a PostgreSQL server, or the embedded database in a directory. */
const backends = {
  async postgres() {
    const created = await createTestDatabase();
    return {
      options: databaseOptions({ connection: created.connection, retry: { attempts: 1 } }),
      directory: '/nonexistent',
      drop: created.drop,
    };
  },
  async embedded() {
    const directory = await mkdtemp(join(tmpdir(), 'lni-pool-storage-'));
    return {
      options: databaseOptions({}),
      directory,
      drop: () => rm(directory, { recursive: true, force: true }),
    };
  },
};

const pooled = (name: string, addedAt: number): StoredPoolTransaction => ({
  id: name.padEnd(64, '0'),
  serialized: Buffer.from(`bytes of ${name}`),
  addedAt,
});

describe.each(
  Object.keys(backends).filter(
    (name) => name !== 'postgres' || !postgresSkipReason,
  ) as (keyof typeof backends)[],
)('pool storage (%s)', (backend) => {
  let options: DatabaseOptions;
  let directory: string;
  let drop: () => Promise<void>;
  let database: Database;
  let storage: PoolStorage;

  const open = async () => {
    database = await openDatabase(options, directory);
    storage = new PoolStorage({ database });
  };

  beforeAll(async () => {
    ({ options, directory, drop } = await backends[backend]());
    await open();
    await applySchemaMigrations(database, quietLogger(), [
      databaseSchema,
      { owner: 'state', migrations: stateSchema.migrations ?? [] },
    ]);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });
  beforeEach(async () => {
    await database.manager.query('TRUNCATE pool_transactions, blocks, transactions');
  });

  it('gives back what was saved in the order it was added, across a reopen', async () => {
    // Arrival times out of order on purpose: the order is the order of acceptance.
    const first = [pooled('c', 3_000), pooled('a', 1_000)];
    const second = [pooled('b', 2_000)];
    await storage.save(first);
    await storage.save(second);
    await database.close();
    await open();
    const kept = await storage.all();
    expect(kept.map((tx) => [tx.id, tx.addedAt])).toEqual(
      [...first, ...second].map((tx) => [tx.id, tx.addedAt]),
    );
    expect(Buffer.from(kept[0]?.serialized as Uint8Array).toString()).toBe('bytes of c');
  }, 60_000);

  it('keeps the first copy of an id saved twice', async () => {
    await storage.save([pooled('a', 1_000), pooled('b', 2_000)]);
    await storage.save([pooled('a', 9_000), pooled('c', 3_000)]);
    expect((await storage.all()).map((tx) => [tx.id[0], tx.addedAt])).toEqual([
      ['a', 1_000],
      ['b', 2_000],
      ['c', 3_000],
    ]);
  });

  it('removes and adds as one commit: a failed batch leaves everything as it was', async () => {
    await storage.save([pooled('a', 1), pooled('b', 2)]);
    await storage.save([pooled('c', 3)], [pooled('a', 1).id]);
    expect((await storage.all()).map((tx) => tx.id[0])).toEqual(['b', 'c']);

    // An id longer than the column: the insert fails, and the removal in the same batch with it.
    const tooLong = { ...pooled('d', 4), id: 'd'.repeat(65) };
    await expect(storage.save([pooled('e', 5), tooLong], [pooled('b', 2).id])).rejects.toThrow();
    expect((await storage.all()).map((tx) => tx.id[0])).toEqual(['b', 'c']);

    await storage.remove([pooled('c', 3).id, 'unknown']);
    expect((await storage.all()).map((tx) => tx.id[0])).toEqual(['b']);
  });

  it('forgets the transactions a stored block carries', async () => {
    const chain = makeChain(2, 2);
    await new BlockStorage({ database }).saveBlocks(chain);
    const confirmed = chain[1]?.transactions[0]?.id as string;
    await storage.save([
      pooled('a', 1),
      { id: confirmed, serialized: Buffer.from('x'), addedAt: 2 },
    ]);
    expect(await storage.removeConfirmed()).toEqual([confirmed]);
    expect((await storage.all()).map((tx) => tx.id[0])).toEqual(['a']);
  });
});
