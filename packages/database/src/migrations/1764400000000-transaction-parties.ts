import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillByHeight, storedBetween } from './height-backfill.js';

/** What a party was to a transaction, as stored in `transaction_parties.role`. */
export const PartyRole = { sender: 0, recipient: 1, payment: 2 } as const;

/**
 * The parties of the transactions in `source` (a table or a transition table with the columns
 * of `transactions`): the sender's public key, the recipient's address, each multipayment
 * recipient's address, one row per party and transaction (the first of sender, recipient,
 * payment when a party is several).
 */
export function partiesOf(source: string): string {
  return `
    SELECT DISTINCT ON (party, block_height, sequence) party, block_height, sequence, role
    FROM (
      SELECT sender_public_key AS party, block_height, sequence, ${PartyRole.sender} AS role
      FROM ${source}
      UNION ALL
      SELECT recipient_id, block_height, sequence, ${PartyRole.recipient}
      FROM ${source} WHERE recipient_id IS NOT NULL
      UNION ALL
      SELECT payment ->> 'recipientId', block_height, sequence, ${PartyRole.payment}
      FROM ${source}
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(asset -> 'payments') = 'array' THEN asset -> 'payments' ELSE '[]'::jsonb END
      ) AS payment
      WHERE payment ->> 'recipientId' IS NOT NULL
    ) AS every_party
    ORDER BY party, block_height, sequence, role`;
}

/**
 * Transactions by party, so that the transactions of an address are one index range read in
 * chain order (newest first read backwards), and exact totals per party and role, so that the
 * `totalCount` of an address, a sender or a recipient is a few index probes instead of a count
 * over every match. The API looks an address up as itself and as its public key (the database
 * stores senders by public key).
 *
 * Kept by statement triggers on `transactions`, like the row totals: every writer (block
 * storage, a 2.7 upgrade, a revert, a cascaded delete) updates them in the transaction that
 * writes the rows. A chain stored before this migration is backfilled in height ranges, with
 * progress in the log.
 */
export class TransactionParties1764400000000 implements MigrationInterface {
  name = 'TransactionParties1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    // `role` rides in the index, so that a role's rows are read without visiting the table.
    await runner.query(
      `CREATE TABLE transaction_parties (
         party TEXT NOT NULL,
         block_height INTEGER NOT NULL,
         sequence SMALLINT NOT NULL,
         role SMALLINT NOT NULL,
         PRIMARY KEY (party, block_height, sequence) INCLUDE (role)
       )`,
    );
    await runner.query(
      `CREATE TABLE party_totals (
         party TEXT NOT NULL,
         role SMALLINT NOT NULL,
         count BIGINT NOT NULL,
         PRIMARY KEY (party, role)
       )`,
    );
    // Groups that reach zero are deleted through this index, without scanning the totals.
    await runner.query('CREATE INDEX party_totals_zero ON party_totals (party) WHERE count = 0');
    await backfill(runner);
    await runner.query(
      `INSERT INTO party_totals (party, role, count)
       SELECT party, role, count(*) FROM transaction_parties GROUP BY party, role`,
    );
    await runner.query(keepPartiesFunction);
    await runner.query(keepPartiesTriggers);
    // Addresses were looked up among multipayment recipients through this index; the party
    // index answers them now, so it would only cost every block a write.
    await runner.query('DROP INDEX IF EXISTS transactions_payment_recipients');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX IF NOT EXISTS transactions_payment_recipients
       ON transactions USING GIN ((asset -> 'payments') jsonb_path_ops)`,
    );
    for (const event of ['insert', 'delete', 'truncate']) {
      await runner.query(`DROP TRIGGER IF EXISTS transaction_parties_${event} ON transactions`);
    }
    await runner.query('DROP FUNCTION IF EXISTS transaction_parties_keep()');
    await runner.query('DROP TABLE IF EXISTS party_totals');
    await runner.query('DROP TABLE IF EXISTS transaction_parties');
  }
}

function backfill(runner: QueryRunner): Promise<void> {
  return backfillByHeight(
    runner,
    { message: 'Indexing transactions by address', doneMessage: 'Transactions indexed by address' },
    (from, to) =>
      `INSERT INTO transaction_parties (party, block_height, sequence, role)
       ${partiesOf(storedBetween(from, to))}`,
  );
}

/**
 * The trigger function as this migration writes it. PartyPairs1764600000000 replaces it with
 * one that also keeps the pair totals, and puts this one back when reverted.
 */
export const keepPartiesFunction = `
  CREATE OR REPLACE FUNCTION transaction_parties_keep() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      WITH kept AS (
        INSERT INTO transaction_parties (party, block_height, sequence, role)
        ${partiesOf('added')}
        RETURNING party, role
      )
      INSERT INTO party_totals (party, role, count)
      SELECT party, role, count(*) FROM kept GROUP BY party, role
      ON CONFLICT (party, role) DO UPDATE SET count = party_totals.count + excluded.count;
    ELSIF TG_OP = 'DELETE' THEN
      WITH gone AS (
        DELETE FROM transaction_parties AS kept
        USING (${partiesOf('removed')}) AS parties
        WHERE kept.party = parties.party AND kept.block_height = parties.block_height
          AND kept.sequence = parties.sequence
        RETURNING kept.party, kept.role
      )
      UPDATE party_totals SET count = party_totals.count - gone.count
      FROM (SELECT party, role, count(*) AS count FROM gone GROUP BY party, role) AS gone
      WHERE party_totals.party = gone.party AND party_totals.role = gone.role;
      DELETE FROM party_totals WHERE count = 0;
    ELSE
      TRUNCATE transaction_parties, party_totals;
    END IF;
    RETURN NULL;
  END $$;`;

const keepPartiesTriggers = `
  CREATE TRIGGER transaction_parties_insert AFTER INSERT ON transactions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION transaction_parties_keep();
  CREATE TRIGGER transaction_parties_delete AFTER DELETE ON transactions
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION transaction_parties_keep();
  CREATE TRIGGER transaction_parties_truncate AFTER TRUNCATE ON transactions
    FOR EACH STATEMENT EXECUTE FUNCTION transaction_parties_keep();`;
