import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedTestDatabase, postgresSkipReason } from '../__fixtures__/postgres.js';
import { blockId, makeChain } from '../__fixtures__/chain.js';
import type { Database } from '../connection/database.js';
import { BlockStorage } from './block-storage.js';
import { RoundStorage } from './round-storage.js';

describe.skipIf(postgresSkipReason)('BlockStorage on PostgreSQL', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let storage: BlockStorage;

  beforeAll(async () => {
    ({ database, dispose } = await openMigratedTestDatabase());
    storage = new BlockStorage({ database });
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('saves a batch and reads blocks and transactions back with bigint amounts', async () => {
    const chain = makeChain(3, 2, 1, (height, sequence) =>
      height === 2 && sequence === 1
        ? {
            amount: 2n ** 62n + 1n,
            vendorField: 'héllo ✓',
            asset: { votes: ['+02ab'] },
          }
        : {},
    );
    await storage.saveBlocks(chain);

    expect(await storage.getLastBlock()).toEqual(chain[2]?.block);
    expect(await storage.getBlockById(blockId(2))).toEqual(chain[1]?.block);
    expect(await storage.getBlockByHeight(1)).toEqual(chain[0]?.block);
    expect((await storage.getBlocksByHeightRange(2, 3)).map((b) => b.height)).toEqual([2, 3]);
    const second = chain[1]?.transactions[1];
    expect(await storage.getTransactionById(second?.id ?? '')).toEqual(second);
    expect(await storage.getTransactionsByBlockId(blockId(2))).toEqual(chain[1]?.transactions);
    expect((await storage.getTransactionsByHeightRange(1, 3)).length).toBe(6);
    const wire = await storage.getSerializedTransactionsByHeightRange(2, 3);
    const expected = [...(chain[1]?.transactions ?? []), ...(chain[2]?.transactions ?? [])];
    expect(wire.map((tx) => tx.blockHeight)).toEqual(expected.map((tx) => tx.blockHeight));
    expect(wire.map((tx) => Buffer.from(tx.serialized).toString('hex'))).toEqual(
      expected.map((tx) => Buffer.from(tx.serialized).toString('hex')),
    );
  });

  it('a failing batch leaves nothing behind', async () => {
    const batch = makeChain(3, 2, 4);
    // The third block repeats a transaction id already stored at height 1.
    const duplicate = makeChain(1, 1, 1)[0]?.transactions[0];
    const broken = batch.map((entry, index) =>
      index === 2 && duplicate
        ? {
            block: entry.block,
            transactions: [{ ...duplicate, blockId: entry.block.id, blockHeight: 6 }],
          }
        : entry,
    );
    await expect(storage.saveBlocks(broken)).rejects.toThrow(/duplicate key/);
    expect((await storage.getLastBlock())?.height).toBe(3);
    expect(await storage.getBlockByHeight(4)).toBeUndefined();
    expect(await storage.getTransactionsByBlockId(blockId(4))).toEqual([]);
  });

  it('saves inside a transaction the caller runs, and rolls back with it', async () => {
    const batch = makeChain(1, 1, 4);
    await expect(
      database.transaction(async (manager) => {
        await storage.saveBlocks(batch, manager);
        expect((await storage.getLastBlock(manager))?.height).toBe(4);
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    expect((await storage.getLastBlock())?.height).toBe(3);
  });

  it('deletes blocks above a height with their transactions', async () => {
    await storage.saveBlocks(makeChain(3, 2, 4));
    expect(await storage.deleteBlocksAbove(4)).toEqual({ blocks: 2, transactions: 4 });
    expect((await storage.getLastBlock())?.height).toBe(4);
    expect(await storage.getTransactionsByHeightRange(5, 10)).toEqual([]);
    expect((await storage.getTransactionsByBlockId(blockId(4))).length).toBe(2);
  });

  it('keeps round delegates and forgets rounds on rollback', async () => {
    const rounds = new RoundStorage({ database });
    await rounds.saveRound([
      { round: 7, publicKey: '02aa', balance: 5n },
      { round: 7, publicKey: '02bb', balance: 9_223_372_036_854_775_807n },
    ]);
    await rounds.saveRound([{ round: 8, publicKey: '02aa', balance: 1n }]);
    expect(await rounds.getRound(7)).toEqual([
      { round: 7, publicKey: '02bb', balance: 9_223_372_036_854_775_807n },
      { round: 7, publicKey: '02aa', balance: 5n },
    ]);
    // Saving a round again replaces it.
    await rounds.saveRound([{ round: 7, publicKey: '02cc', balance: 3n }]);
    expect(await rounds.getRound(7)).toEqual([{ round: 7, publicKey: '02cc', balance: 3n }]);
    expect(await rounds.storedRounds()).toEqual([7, 8]);
    await rounds.deleteRoundsFrom(8);
    expect(await rounds.getRound(8)).toEqual([]);
  });
});
