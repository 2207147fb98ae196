import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChain } from '../__fixtures__/chain.js';
import { changeChainEveryWay, migrateUpLogged } from '../__fixtures__/kept-tables.js';
import { openMigratedTestDatabase, postgresSkipReason } from '../__fixtures__/postgres.js';
import type { Database } from '../connection/database.js';
import type { BlockWithTransactions, StoredTransaction } from '../records.js';
import { BlockStorage } from '../storage/block-storage.js';
import { TransactionParties1764400000000 } from './1764400000000-transaction-parties.js';

const SENDERS = ['03'.padEnd(66, 'a'), '03'.padEnd(66, 'b'), '03'.padEnd(66, 'c')];

/**
 * Transfers, votes (no recipient), multipayments paying a party twice, and a recipient of one
 * block only.
 */
function partiesChain(blocks: number, from: number): BlockWithTransactions[] {
  return makeChain(blocks, 5, from, (height, sequence) => {
    const senderPublicKey = SENDERS[(height + sequence) % 3] as string;
    switch (sequence) {
      case 1:
        return { senderPublicKey, type: 3, recipientId: null, asset: { votes: ['+02ab'] } };
      case 2:
        return {
          senderPublicKey,
          type: 6,
          recipientId: null,
          asset: {
            payments: [
              { recipientId: `APaid${height % 3}`, amount: '1' },
              { recipientId: `APaid${height % 3}`, amount: '2' },
              { recipientId: `ARecv${height % 4}`, amount: '3' },
            ],
          },
        };
      case 3:
        // A party paid by multipayments and by transfers.
        return { senderPublicKey, recipientId: `APaid${height % 3}` };
      case 4:
        // A party of one block only: a revert of that block leaves it no total.
        return { senderPublicKey, recipientId: `AOnce${height}` };
      default:
        return { senderPublicKey, recipientId: `ARecv${height % 4}` };
    }
  });
}

describe.skipIf(postgresSkipReason)('transactions by party, kept with the chain', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let storage: BlockStorage;

  const rows = async (sql: string, params: unknown[] = []) =>
    ((await database.manager.query(sql, params)) as Record<string, unknown>[]).map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)])),
    );
  /** Every party's kept totals equal a count(*) over the transactions themselves. */
  const expectTotalsMatchTransactions = async () => {
    const parties = (await rows('SELECT DISTINCT party FROM party_totals')).map((r) => r.party);
    const stored = await rows('SELECT count(*) AS n FROM transactions');
    for (const party of parties) {
      const [truth] = await rows(
        `SELECT count(*) AS n FROM transactions
         WHERE sender_public_key = $1 OR recipient_id = $1
           OR asset -> 'payments' @> jsonb_build_array(jsonb_build_object('recipientId', $1::text))`,
        [party],
      );
      const [kept] = await rows('SELECT sum(count) AS n FROM party_totals WHERE party = $1', [
        party,
      ]);
      expect(kept, party).toEqual(truth);
    }
    // Every transaction is found through its sender, and nothing else is in the index.
    expect(
      await rows(
        `SELECT count(*) AS n FROM transaction_parties p
         JOIN transactions t USING (block_height, sequence) WHERE p.party = t.sender_public_key`,
      ),
    ).toEqual(stored);
    expect(await rows('SELECT sum(count) AS n FROM party_totals')).toEqual(
      await rows('SELECT count(*) AS n FROM transaction_parties'),
    );
    expect(await rows('SELECT count(*) AS n FROM party_totals WHERE count <= 0')).toEqual([
      { n: '0' },
    ]);
  };
  /** The roles of one transaction's parties, as the index holds them. */
  const rolesOf = async (transaction: StoredTransaction) =>
    byParty(
      await rows(
        'SELECT party, role FROM transaction_parties WHERE block_height = $1 AND sequence = $2',
        [transaction.blockHeight, transaction.sequence],
      ),
    );
  const byParty = (list: Record<string, string>[]) =>
    [...list].sort((a, b) => ((a.party as string) < (b.party as string) ? -1 : 1));

  beforeAll(async () => {
    ({ database, dispose } = await openMigratedTestDatabase());
    storage = new BlockStorage({ database });
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('indexes every party once per transaction, with its role', async () => {
    const chain = partiesChain(4, 1);
    await storage.saveBlocks(chain);
    const [transfer, vote, multipayment, paid] = chain[1]!.transactions;
    expect(await rolesOf(transfer!)).toEqual(
      byParty([
        { party: transfer!.senderPublicKey, role: '0' },
        { party: 'ARecv2', role: '1' },
      ]),
    );
    expect(await rolesOf(vote!)).toEqual([{ party: vote!.senderPublicKey, role: '0' }]);
    // Paid twice in one multipayment: one row.
    expect(await rolesOf(multipayment!)).toEqual(
      byParty([
        { party: 'APaid2', role: '2' },
        { party: 'ARecv2', role: '2' },
        { party: multipayment!.senderPublicKey, role: '0' },
      ]),
    );
    expect(await rolesOf(paid!)).toEqual(
      byParty([
        { party: 'APaid2', role: '1' },
        { party: paid!.senderPublicKey, role: '0' },
      ]),
    );
    await expectTotalsMatchTransactions();
  });

  it('follows blocks applied, reverted, deleted by cascade and truncated', async () => {
    await changeChainEveryWay(database, storage, partiesChain, expectTotalsMatchTransactions);
    expect(await rows('SELECT sum(count) AS n FROM party_totals WHERE role = 0')).toEqual([
      { n: '55' },
    ]);
    await database.manager.query('TRUNCATE blocks CASCADE');
    expect(await rows('SELECT count(*) AS n FROM transaction_parties')).toEqual([{ n: '0' }]);
    expect(await rows('SELECT count(*) AS n FROM party_totals')).toEqual([{ n: '0' }]);
  });

  it('the migration backfills a chain stored before it, reporting progress', async () => {
    const migration = new TransactionParties1764400000000();
    await database.transaction((manager) => migration.down(manager.queryRunner!));
    await storage.saveBlocks(partiesChain(30, 1));
    const lines = await migrateUpLogged(database, migration);
    await expectTotalsMatchTransactions();
    expect(lines).toContain('Transactions indexed by address');
    // The triggers run again after the backfill.
    await storage.deleteBlocksAbove(20);
    await storage.saveBlocks(partiesChain(5, 21));
    await expectTotalsMatchTransactions();
  });
});
