import { serializeTransaction, type TransactionData } from '@lni/crypto';
import { PoolStorage } from '../storage/pool-storage.js';
import { createLogger } from '@lni/kernel';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FullBlock } from '../blocks/block-store.js';
import {
  addressOf,
  ALICE,
  BOB,
  nextBlock,
  testNetwork,
  testProcessor,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { openTestStore } from '../blocks/__fixtures__/test-database.js';
import { LegacyPoolFile } from './legacy-pool-file.js';
import { PoolJournal } from './pool-journal.js';
import { poolOptions, type PoolOptions } from './pool-options.js';
import { PoolRecovery } from './pool-recovery.js';
import { TransactionPool } from './transaction-pool.js';

const network = testNetwork();
const alice = addressOf(ALICE);
const bob = addressOf(BOB);
const skipPostgres = process.env.LNI_TEST_POSTGRES === 'unavailable';

function recordingLogger() {
  const records: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      records.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', out, pretty: false }), records };
}

describe.each((['postgres', 'embedded'] as const).filter((b) => b !== 'postgres' || !skipPostgres))(
  'the pool kept in the database (%s)',
  (backend) => {
    let db: Awaited<ReturnType<typeof openTestStore>>;
    let storage: PoolStorage;
    let directory: string;
    /** The blocks stored so far, which a restarted node replays. */
    let chain: FullBlock[];

    beforeAll(async () => {
      db = await openTestStore(backend);
      storage = new PoolStorage({ database: db.database });
      directory = await mkdtemp(join(tmpdir(), 'lni-pool-data-'));
    }, 60_000);
    afterAll(async () => {
      await db?.close();
      if (directory) await rm(directory, { recursive: true, force: true });
    });
    beforeEach(async () => {
      await db.database.manager.query('TRUNCATE pool_transactions, blocks, transactions, rounds');
      chain = [];
    });

    /**
     * A node's state and pool over the database, as after a (re)start: the stored chain is
     * replayed, then the pool is recovered from storage (and `pool.json` when there is one).
     */
    async function startNode(clock: () => number, options: Partial<PoolOptions> = {}) {
      const { logger, records } = recordingLogger();
      const { wallets, processor } = testProcessor(network, db.store);
      if (chain.length === 0) {
        await processor.process(network.genesis);
        chain.push(network.genesis);
      } else {
        for (const block of chain) processor.applyToState(block);
      }
      const pool = new TransactionPool({
        wallets,
        milestones: network.milestones,
        network: { pubKeyHash: 23 },
        tip: () => processor.lastBlock ?? { height: 0, timestamp: 0 },
        poolOptions: poolOptions({ staticFees: false, ...options }),
        logger,
        journal: new PoolJournal({ poolStorage: storage, logger }),
        clock,
      });
      const recovery = await new PoolRecovery({
        transactionPool: pool,
        poolStorage: storage,
        legacyFile: new LegacyPoolFile(join(directory, 'pool.json')),
        logger,
      }).recover();
      /** Forges and stores the next block, as peers or the forger would. */
      const forge = async (transactions: TransactionData[]) => {
        const block = nextBlock(network, processor.lastBlock as FullBlock, transactions);
        await processor.process(block);
        chain.push(block);
        return block;
      };
      return { pool, processor, records, recovery, forge };
    }

    const kept = async () => (await storage.all()).map((row) => [row.id, row.addedAt]);

    it('has what it accepted in storage by the time add answers, with the arrival time', async () => {
      const node = await startNode(() => 5_000);
      const txs = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n));
      const result = await node.pool.add(txs);
      expect(result.accepted).toEqual(txs.map((tx) => tx.id));
      // No flush: the answer itself waited for the commit.
      expect(await kept()).toEqual(txs.map((tx) => [tx.id, 5_000]));
      expect(Buffer.from((await storage.all())[0]?.serialized as Uint8Array)).toEqual(
        serializeTransaction(txs[0] as TransactionData),
      );
    });

    it('forgets what a block confirms or invalidates and what is evicted; a revert brings it back', async () => {
      const node = await startNode(() => 5_000, { maxTransactions: 3 });
      const a = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n, 2_000_000n));
      await node.pool.add(a);
      // A richer transaction evicts alice's worst tail, in the same commit that adds it.
      const bobRich = transferOf(BOB, alice, 1n, 1n, 50_000_000n);
      expect((await node.pool.add([bobRich])).accepted).toEqual([bobRich.id]);
      expect(await kept()).toEqual([a[0], a[1], bobRich].map((tx) => [tx?.id, 5_000]));

      // Alice's first is confirmed; bob spent his nonce 1 elsewhere, which invalidates his.
      const bobElsewhere = transferOf(BOB, alice, 7n, 1n);
      const block = await node.forge([a[0] as TransactionData, bobElsewhere]);
      node.pool.blockApplied(block);
      await node.pool.flush();
      expect(await kept()).toEqual([[a[1]?.id, 5_000]]);

      await node.processor.revertTo(block.height - 1);
      chain.pop();
      await node.pool.blocksReverted([block]);
      await node.pool.flush();
      expect((await kept()).map(([id]) => id).sort()).toEqual(
        [a[0]?.id, a[1]?.id, bobElsewhere.id].sort(),
      );
    });

    it('after a crash, takes back every kept transaction the chain still accepts, in arrival order', async () => {
      let now = 5_000;
      const first = await startNode(() => now);
      const aliceTxs = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
      const bobTxs = [1n, 2n].map((n) => transferOf(BOB, alice, 1n, n));
      await first.pool.add(aliceTxs);
      now = 6_000;
      await first.pool.add(bobTxs);
      // A block is stored, then the process dies before the pool hears of it: alice's first is
      // confirmed, bob's first is made invalid (he spent nonce 1 on another transfer).
      await first.forge([aliceTxs[0] as TransactionData, transferOf(BOB, alice, 9n, 1n)]);

      const second = await startNode(() => 7_000);
      expect(second.recovery).toEqual({
        restored: 3,
        confirmed: 1,
        dropped: { ERR_TX_NONCE: 1 },
      });
      expect([...second.pool.entries()].map((e) => [e.id, e.addedAt])).toEqual([
        [aliceTxs[1]?.id, 5_000],
        [aliceTxs[2]?.id, 5_000],
        [bobTxs[1]?.id, 6_000],
      ]);
      expect(await kept()).toEqual([
        [aliceTxs[1]?.id, 5_000],
        [aliceTxs[2]?.id, 5_000],
        [bobTxs[1]?.id, 6_000],
      ]);
      expect(second.records).toContainEqual(
        expect.objectContaining({
          msg: 'Pool transactions the chain no longer accepts were dropped',
          dropped: 1,
          reasons: { ERR_TX_NONCE: 1 },
        }),
      );
      expect(second.records).toContainEqual(
        expect.objectContaining({ msg: 'Pool restored', restored: 3, confirmed: 1 }),
      );
    });

    it('forges restored transactions and then forgets them', async () => {
      const first = await startNode(() => 5_000);
      const txs = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
      await first.pool.add(txs);
      const second = await startNode(() => 5_000);
      const collected = second.pool.collect().map((entry) => entry.tx);
      expect(collected.map((tx) => tx.id)).toEqual(txs.map((tx) => tx.id));
      second.pool.blockApplied(await second.forge(collected));
      await second.pool.flush();
      expect(second.pool.size).toBe(0);
      expect(await kept()).toEqual([]);
    });

    it('drops kept transactions older than the age limit at restart', async () => {
      const first = await startNode(() => 5_000);
      await first.pool.add([transferOf(ALICE, bob, 1n, 1n)]);
      const second = await startNode(() => 5_000 + 3_601_000, { maxAgeSeconds: 3_600 });
      expect(second.recovery).toMatchObject({ restored: 0, dropped: { expired: 1 } });
      expect(await kept()).toEqual([]);
    });

    it('moves an old pool.json into the database once and removes it', async () => {
      const file = join(directory, 'pool.json');
      const txs = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n));
      await writeFile(
        file,
        JSON.stringify({
          version: 1,
          transactions: txs.map((tx) => ({
            hex: serializeTransaction(tx).toString('hex'),
            addedAt: 4_000,
          })),
        }),
      );
      const first = await startNode(() => 5_000);
      expect(first.recovery.restored).toBe(2);
      expect(existsSync(file)).toBe(false);
      expect(await kept()).toEqual(txs.map((tx) => [tx.id, 4_000]));

      // The next start finds them in the database; nothing writes the file again.
      await first.pool.flush();
      const second = await startNode(() => 5_000);
      expect(second.recovery.restored).toBe(2);
      expect(existsSync(file)).toBe(false);
    });

    it('removes an unreadable pool.json with a warning naming it', async () => {
      const file = join(directory, 'pool.json');
      await writeFile(file, '{"version": 1, "transac');
      const node = await startNode(() => 5_000);
      expect(existsSync(file)).toBe(false);
      expect(node.records).toContainEqual(
        expect.objectContaining({ msg: 'Old pool file unreadable; removed', path: file }),
      );
    });
  },
);
