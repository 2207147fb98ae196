import { createLogger } from '@lni/kernel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addressOf,
  ALICE,
  BOB,
  testNetwork,
  testProcessor,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { openTestStore } from '../blocks/__fixtures__/test-database.js';
import { PoolStorage } from '../storage/pool-storage.js';
import type { PoolRemoval } from './pool-announcer.js';
import { PoolJournal } from './pool-journal.js';
import { poolOptions } from './pool-options.js';
import { TransactionPool } from './transaction-pool.js';

const network = testNetwork();
const alice = addressOf(ALICE);
const bob = addressOf(BOB);
const logger = createLogger({ level: 'fatal' });

// What `kernel pool drop` and `kernel pool flush` do, over the real pool table in PostgreSQL.
describe.skipIf(process.env.LNI_TEST_POSTGRES === 'unavailable')(
  "an operator's removals from the pool",
  () => {
    let db: Awaited<ReturnType<typeof openTestStore>>;
    let storage: PoolStorage;

    beforeAll(async () => {
      db = await openTestStore('postgres');
      storage = new PoolStorage({ database: db.database });
    }, 60_000);
    afterAll(async () => {
      await db?.close();
    });
    beforeEach(async () => {
      await db.database.manager.query('TRUNCATE pool_transactions, blocks, transactions, rounds');
    });

    async function poolWith() {
      const { wallets, processor } = testProcessor(network, db.store);
      await processor.process(network.genesis);
      const pool = new TransactionPool({
        wallets,
        milestones: network.milestones,
        network: { pubKeyHash: 23 },
        tip: () => processor.lastBlock ?? { height: 0, timestamp: 0 },
        poolOptions: poolOptions({ staticFees: false }),
        logger,
        journal: new PoolJournal({ poolStorage: storage, logger }),
      });
      const removals: PoolRemoval[] = [];
      pool.subscribe({ removed: (gone) => removals.push(...gone) });
      const aliceTxs = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
      const bobTx = transferOf(BOB, alice, 1n, 1n);
      await pool.add([...aliceTxs, bobTx]);
      return { pool, removals, aliceTxs, bobTx };
    }

    const stored = async () => (await storage.all()).map((row) => row.id).sort();

    it("drops a transaction and its sender's later ones from memory and the table", async () => {
      const { pool, removals, aliceTxs, bobTx } = await poolWith();
      const [first, second, third] = aliceTxs.map((tx) => tx.id as string);

      expect(await pool.drop(second as string)).toEqual([second, third]);

      expect([...pool.entries()].map((entry) => entry.id).sort()).toEqual([first, bobTx.id].sort());
      // Resolved means stored: no flush needed to see the rows gone.
      expect(await stored()).toEqual([first, bobTx.id].sort());
      expect(removals.map(({ entry, reason }) => [entry.id, reason])).toEqual([
        [second, 'dropped'],
        [third, 'dropped'],
      ]);
    });

    it('changes nothing for an id the pool does not hold', async () => {
      const { pool } = await poolWith();
      const before = await stored();
      expect(await pool.drop('f'.repeat(64))).toEqual([]);
      expect(pool.size).toBe(4);
      expect(await stored()).toEqual(before);
    });

    it('empties the pool and the table on a flush', async () => {
      const { pool, removals } = await poolWith();
      expect(await pool.dropAll()).toBe(4);
      expect(pool.size).toBe(0);
      expect(await stored()).toEqual([]);
      expect(removals).toHaveLength(4);
    });
  },
);
