import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillByHeight, storedBetween } from './height-backfill.js';
import { keepPartiesFunction, partiesOf } from './1764400000000-transaction-parties.js';

/**
 * What the exact total of several addresses needs beyond each one's total: how many
 * transactions they share.
 *
 * A transaction with two parties (a transfer: its sender's key and its recipient) adds one to
 * the kept total of that pair, `party_pair_totals`. A transaction with three or more (a
 * multipayment) is listed by party in `wide_transaction_parties` instead: one keyed by pairs
 * would write up to 2,080 of them for 64 recipients. `pairedPartyTotal` (query/parties.ts)
 * turns them into a total with a probe per pair of parties, where the count before read every
 * transaction of the smaller parties (2,000 index entries for two addresses of 1,000 each).
 *
 * Kept by the party index's statement triggers on `transactions`, whose function this migration
 * extends, and backfilled from the stored transactions in height ranges, with progress in the
 * log.
 */
export class PartyPairs1764600000000 implements MigrationInterface {
  name = 'PartyPairs1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE party_pair_totals (
         low TEXT NOT NULL,
         high TEXT NOT NULL,
         count BIGINT NOT NULL,
         PRIMARY KEY (low, high)
       )`,
    );
    // Pairs that reach zero are deleted through this index, without scanning the totals.
    await runner.query(
      'CREATE INDEX party_pair_totals_zero ON party_pair_totals (low) WHERE count = 0',
    );
    await runner.query(
      `CREATE TABLE wide_transaction_parties (
         party TEXT NOT NULL,
         block_height INTEGER NOT NULL,
         sequence SMALLINT NOT NULL,
         PRIMARY KEY (party, block_height, sequence)
       )`,
    );
    await backfill(runner);
    await runner.query(keepPartiesAndPairsFunction);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(keepPartiesFunction);
    await runner.query('DROP TABLE IF EXISTS wide_transaction_parties');
    await runner.query('DROP TABLE IF EXISTS party_pair_totals');
  }
}

/** The parties of `source` (rows of `transactions`), each with its transaction's party count. */
function partiesWithWidth(source: string): string {
  return `SELECT party, block_height, sequence, role,
      count(*) OVER (PARTITION BY block_height, sequence) AS width
    FROM (${partiesOf(source)}) AS parties`;
}

/** The pairs of the two-party transactions among `counted`, with how many each pair has. */
const pairsOf = (counted: string) => `
  SELECT low, high, count(*) AS count FROM (
    SELECT min(party) AS low, max(party) AS high FROM ${counted}
    WHERE width = 2 GROUP BY block_height, sequence
  ) AS pairs GROUP BY low, high`;

/**
 * One statement adding the pairs and wide transactions of `source` (rows of `transactions`);
 * `alsoFromCounted` are more data-modifying CTEs fed by the same parties, `counted`.
 */
const keep = (source: string, ...alsoFromCounted: string[]) => `
  WITH counted AS (${partiesWithWidth(source)}),
  ${alsoFromCounted.map((cte) => `${cte},`).join('\n')}
  wide AS (
    INSERT INTO wide_transaction_parties (party, block_height, sequence)
    SELECT party, block_height, sequence FROM counted WHERE width > 2
  )
  INSERT INTO party_pair_totals (low, high, count) ${pairsOf('counted')}
  ON CONFLICT (low, high) DO UPDATE SET count = party_pair_totals.count + excluded.count`;

function backfill(runner: QueryRunner): Promise<void> {
  return backfillByHeight(
    runner,
    {
      message: 'Totalling transactions by pair of addresses',
      doneMessage: 'Transactions totalled by pair of addresses',
    },
    (from, to) => keep(storedBetween(from, to)),
  );
}

/** What the party index's own function writes on insert, as CTEs reading `counted`. */
const addToPartyIndex = `kept AS (
    INSERT INTO transaction_parties (party, block_height, sequence, role)
    SELECT party, block_height, sequence, role FROM counted
  )`;
const addToPartyTotals = `totals AS (
    INSERT INTO party_totals (party, role, count)
    SELECT party, role, count(*) FROM counted GROUP BY party, role
    ON CONFLICT (party, role) DO UPDATE SET count = party_totals.count + excluded.count
  )`;

/**
 * The party index's trigger function, now keeping the pairs and the wide list as well, from
 * the same parties: they are worked out once per statement (a CTE named several times is
 * computed once) instead of once more by a trigger of their own. That saves little (about
 * 0.3 ms of the pairs' 2.5 ms per block of 100 transfers, see the README), but keeps one
 * trigger per event on `transactions`.
 */
const keepPartiesAndPairsFunction = `
  CREATE OR REPLACE FUNCTION transaction_parties_keep() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      ${keep('added', addToPartyIndex, addToPartyTotals)};
    ELSIF TG_OP = 'DELETE' THEN
      WITH counted AS (${partiesWithWidth('removed')}),
      gone AS (
        DELETE FROM transaction_parties AS kept USING counted
        WHERE kept.party = counted.party AND kept.block_height = counted.block_height
          AND kept.sequence = counted.sequence
        RETURNING kept.party, kept.role
      ),
      totals AS (
        UPDATE party_totals SET count = party_totals.count - gone.count
        FROM (SELECT party, role, count(*) AS count FROM gone GROUP BY party, role) AS gone
        WHERE party_totals.party = gone.party AND party_totals.role = gone.role
      ),
      wide AS (
        DELETE FROM wide_transaction_parties AS kept USING counted
        WHERE counted.width > 2 AND kept.party = counted.party
          AND kept.block_height = counted.block_height AND kept.sequence = counted.sequence
      )
      UPDATE party_pair_totals SET count = party_pair_totals.count - gone.count
      FROM (${pairsOf('counted')}) AS gone
      WHERE party_pair_totals.low = gone.low AND party_pair_totals.high = gone.high;
      DELETE FROM party_totals WHERE count = 0;
      DELETE FROM party_pair_totals WHERE count = 0;
    ELSE
      TRUNCATE transaction_parties, party_totals, party_pair_totals, wide_transaction_parties;
    END IF;
    RETURN NULL;
  END $$;`;
