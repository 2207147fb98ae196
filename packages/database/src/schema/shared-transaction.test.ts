import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChain } from '../__fixtures__/chain.js';
import { openMigratedTestDatabase, postgresSkipReason } from '../__fixtures__/postgres.js';
import type { Database } from '../connection/database.js';
import { BlockStorage } from '../storage/block-storage.js';
import { SharedTransaction } from './shared-transaction.js';

describe.skipIf(postgresSkipReason)('a shared transaction (PostgreSQL)', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await openMigratedTestDatabase());
    await database.manager.query('CREATE TABLE outbox (height int PRIMARY KEY)');
  });
  afterAll(async () => {
    await dispose?.();
  });

  const heights = async (table: 'blocks' | 'outbox') =>
    (
      (await database.manager.query(`SELECT height FROM ${table} ORDER BY height`)) as {
        height: number;
      }[]
    ).map((row) => row.height);

  it("commits the owner's and the participants' writes together, then runs what they asked", async () => {
    const shared = new SharedTransaction<{ height: number }>({ database });
    const storage = new BlockStorage({ database });
    const seenAfterCommit: number[][] = [];
    shared.join(async (manager, { height }) => {
      await manager.query('INSERT INTO outbox VALUES ($1)', [height]);
      // Runs after the commit: another connection already sees the row.
      return () => void heights('outbox').then((rows) => seenAfterCommit.push(rows));
    });
    const [block] = makeChain(1, 0);
    await shared.run({ height: 1 }, (manager) => storage.saveBlocks([block!], manager));
    expect(await heights('blocks')).toEqual([1]);
    expect(await heights('outbox')).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seenAfterCommit).toEqual([[1]]);
  });

  it("rolls the owner's writes back when a participant fails, and runs nothing after", async () => {
    const shared = new SharedTransaction<{ height: number }>({ database });
    const storage = new BlockStorage({ database });
    let after = false;
    shared.join(async () => () => {
      after = true;
    });
    const leave = shared.join(async (manager, { height }) => {
      await manager.query('INSERT INTO outbox VALUES ($1)', [height]);
      throw new Error('participant failed');
    });
    const second = makeChain(2, 0)[1]!;
    await expect(
      shared.run({ height: 2 }, (manager) => storage.saveBlocks([second], manager)),
    ).rejects.toThrow('participant failed');
    expect(await heights('blocks')).toEqual([1]);
    expect(await heights('outbox')).toEqual([1]);
    expect(after).toBe(false);

    leave();
    await shared.run({ height: 2 }, (manager) => storage.saveBlocks([second], manager));
    expect(await heights('blocks')).toEqual([1, 2]);
    expect(after).toBe(true);
  });
});
