import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChain } from '../__fixtures__/chain.js';
import { changeChainEveryWay, migrateUpLogged } from '../__fixtures__/kept-tables.js';
import { openMigratedTestDatabase, postgresSkipReason } from '../__fixtures__/postgres.js';
import type { Database } from '../connection/database.js';
import type { BlockWithTransactions } from '../records.js';
import { BlockStorage } from '../storage/block-storage.js';
import { PartyPairs1764600000000 } from './1764600000000-party-pairs.js';

const SENDERS = ['03'.padEnd(66, 'a'), '03'.padEnd(66, 'b'), '03'.padEnd(66, 'c')];

/**
 * Transfers (two parties), votes (one), multipayments of three parties or more, and a
 * multipayment paying one address twice (two parties).
 */
function pairsChain(blocks: number, from: number): BlockWithTransactions[] {
  return makeChain(blocks, 5, from, (height, sequence) => {
    const senderPublicKey = SENDERS[(height + sequence) % 3] as string;
    const paid = `APaid${height % 3}`;
    const paying = (...recipients: string[]) => ({
      senderPublicKey,
      type: 6,
      recipientId: null,
      asset: { payments: recipients.map((recipientId) => ({ recipientId, amount: '1' })) },
    });
    switch (sequence) {
      case 1:
        return { senderPublicKey, type: 3, recipientId: null, asset: { votes: ['+02ab'] } };
      case 2:
        return paying(paid, `ARecv${height % 4}`);
      case 3:
        return paying(paid, paid);
      default:
        return { senderPublicKey, recipientId: sequence === 0 ? paid : `ARecv${height % 4}` };
    }
  });
}

describe.skipIf(postgresSkipReason)(
  'pair totals and wide transactions, kept with the chain',
  () => {
    let database: Database;
    let dispose: () => Promise<void>;
    let storage: BlockStorage;

    const rows = async (sql: string) =>
      ((await database.manager.query(sql)) as Record<string, unknown>[]).map((row) =>
        Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)])),
      );
    /** What the kept pairs and wide list hold equals what the party index says they should. */
    const expectPairsMatchParties = async () => {
      const widths = `SELECT party, block_height, sequence,
        count(*) OVER (PARTITION BY block_height, sequence) AS width FROM transaction_parties`;
      expect(
        await rows('SELECT low, high, count FROM party_pair_totals ORDER BY low, high'),
      ).toEqual(
        await rows(
          `SELECT a.party AS low, b.party AS high, count(*) AS count
         FROM (${widths}) AS a JOIN (${widths}) AS b USING (block_height, sequence)
         WHERE a.width = 2 AND a.party < b.party
         GROUP BY a.party, b.party ORDER BY low, high`,
        ),
      );
      expect(
        await rows(
          'SELECT party, block_height, sequence FROM wide_transaction_parties ORDER BY 1, 2, 3',
        ),
      ).toEqual(
        await rows(
          `SELECT party, block_height, sequence FROM (${widths}) AS counted
         WHERE width > 2 ORDER BY 1, 2, 3`,
        ),
      );
    };

    beforeAll(async () => {
      ({ database, dispose } = await openMigratedTestDatabase());
      storage = new BlockStorage({ database });
    });
    afterAll(async () => {
      await dispose?.();
    });

    it('follows blocks applied, reverted, deleted by cascade and truncated', async () => {
      await changeChainEveryWay(database, storage, pairsChain, expectPairsMatchParties);
      // Heights 5 to 11 are left, each block with three two-party transactions and one of three.
      expect(await rows('SELECT sum(count) AS n FROM party_pair_totals')).toEqual([{ n: '21' }]);
      expect(await rows('SELECT count(*) AS n FROM wide_transaction_parties')).toEqual([
        { n: '21' },
      ]);
      expect(await rows('SELECT count(*) AS n FROM party_pair_totals WHERE count <= 0')).toEqual([
        { n: '0' },
      ]);
      await database.manager.query('TRUNCATE blocks CASCADE');
      expect(await rows('SELECT count(*) AS n FROM party_pair_totals')).toEqual([{ n: '0' }]);
      expect(await rows('SELECT count(*) AS n FROM wide_transaction_parties')).toEqual([
        { n: '0' },
      ]);
    });

    it('the migration backfills a chain stored before it, reporting progress', async () => {
      const migration = new PartyPairs1764600000000();
      await database.transaction((manager) => migration.down(manager.queryRunner!));
      await storage.saveBlocks(pairsChain(30, 1));
      const lines = await migrateUpLogged(database, migration);
      await expectPairsMatchParties();
      expect(lines).toContain('Transactions totalled by pair of addresses');
      // The triggers run again after the backfill.
      await storage.deleteBlocksAbove(20);
      await storage.saveBlocks(pairsChain(5, 21));
      await expectPairsMatchParties();
    });
  },
);
