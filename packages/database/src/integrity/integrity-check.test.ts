import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openMigratedTestDatabase, postgresSkipReason } from '../__fixtures__/postgres.js';
import { blockId, makeChain } from '../__fixtures__/chain.js';
import type { Database } from '../connection/database.js';
import { IntegrityError } from '../errors.js';
import { BlockStorage } from '../storage/block-storage.js';
import { checkChainIntegrity } from './integrity-check.js';

describe.skipIf(postgresSkipReason)('checkChainIntegrity on PostgreSQL', () => {
  let database: Database;
  let dispose: () => Promise<void>;

  const failure = async () => {
    try {
      await checkChainIntegrity(database.manager);
    } catch (error) {
      if (error instanceof IntegrityError) return { height: error.height, message: error.message };
      throw error;
    }
    throw new Error('the check passed');
  };

  beforeAll(async () => {
    ({ database, dispose } = await openMigratedTestDatabase());
  });
  beforeEach(async () => {
    await database.manager.query('TRUNCATE blocks, transactions');
    await new BlockStorage({ database }).saveBlocks(makeChain(10, 2));
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('passes a sound chain and returns its height', async () => {
    expect(await checkChainIntegrity(database.manager)).toBe(10);
  });

  it("accepts a genesis block whose previous block is '0', as ARK stores it, and no other", async () => {
    await database.manager.query("UPDATE blocks SET previous_block = '0' WHERE height = 1");
    expect(await checkChainIntegrity(database.manager)).toBe(10);
    await database.manager.query("UPDATE blocks SET previous_block = '1' WHERE height = 1");
    expect(await failure()).toMatchObject({ height: 1 });
  });

  it('names the first missing height', async () => {
    await database.manager.query('DELETE FROM blocks WHERE height IN (4, 7)');
    expect(await failure()).toEqual({
      height: 4,
      message: 'Stored chain is inconsistent at height 4: block missing',
    });
  });

  it('names the first block whose previous id does not match', async () => {
    await database.manager.query('UPDATE blocks SET previous_block = $1 WHERE height = 6', [
      'f'.repeat(64),
    ]);
    await database.manager.query('UPDATE blocks SET previous_block = NULL WHERE height = 8');
    expect((await failure()).height).toBe(6);
  });

  it('names the first height where a transaction sits in the wrong block', async () => {
    await database.manager.query('UPDATE transactions SET block_id = $1 WHERE block_height = 5', [
      blockId(9),
    ]);
    expect(await failure()).toMatchObject({
      height: 5,
      message: expect.stringContaining("transaction's block height"),
    });
  });
});
