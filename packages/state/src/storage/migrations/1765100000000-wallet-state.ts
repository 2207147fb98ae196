import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * Wallet state kept in SQL with each block (issue 29): `wallets` holds every wallet the chain
 * touched, the whole wallet in `attributes` and a copy of each indexed field in its own column
 * (wallets/wallet-row.ts names them), so that api nodes answer wallet and delegate queries from
 * PostgreSQL or its replicas. `state_head` is one row: the block the table is at, the supply and
 * a hash of the wallet state, checked when a node loads the table instead of replaying the chain.
 * An empty head means the table was never filled (a database of an earlier release): the node
 * then rebuilds from the chain and writes the whole table once.
 */
export class WalletState1765100000000 implements MigrationInterface {
  name = 'WalletState1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE IF NOT EXISTS wallets (
         address VARCHAR(64) PRIMARY KEY,
         public_key VARCHAR(66),
         balance NUMERIC(20,0) NOT NULL,
         nonce NUMERIC(20,0) NOT NULL,
         attributes JSONB NOT NULL,
         updated_height BIGINT NOT NULL,
         vote TEXT,
         second_public_key TEXT,
         multi_signature_min DOUBLE PRECISION,
         htlc_locked_balance NUMERIC(20,0),
         delegate_username TEXT,
         delegate_vote_balance NUMERIC(20,0),
         delegate_forged_fees NUMERIC(20,0),
         delegate_forged_rewards NUMERIC(20,0),
         delegate_forged_total NUMERIC(20,0),
         delegate_produced_blocks DOUBLE PRECISION,
         delegate_missed_blocks DOUBLE PRECISION,
         delegate_productivity DOUBLE PRECISION,
         delegate_rank DOUBLE PRECISION,
         delegate_resigned BOOLEAN,
         delegate_last_block_id TEXT,
         delegate_last_block_height DOUBLE PRECISION,
         delegate_last_block_timestamp DOUBLE PRECISION
       )`,
    );
    // The orders and lookups of the spec's wallet and delegate routes; ties by address.
    const indexes: Record<string, string> = {
      wallets_public_key: '(public_key) WHERE public_key IS NOT NULL',
      wallets_balance: '(balance DESC, address)',
      wallets_vote: '(vote, balance DESC, address) WHERE vote IS NOT NULL',
      wallets_delegate_username: '(delegate_username) WHERE delegate_username IS NOT NULL',
      wallets_delegate_rank: '(delegate_rank, address) WHERE delegate_username IS NOT NULL',
      wallets_delegate_vote_balance:
        '(delegate_vote_balance DESC, address) WHERE delegate_username IS NOT NULL',
      wallets_updated_height: '(updated_height)',
    };
    for (const [name, definition] of Object.entries(indexes)) {
      await runner.query(`CREATE INDEX IF NOT EXISTS ${name} ON wallets ${definition}`);
    }
    await runner.query(
      `CREATE TABLE IF NOT EXISTS state_head (
         id SMALLINT PRIMARY KEY CHECK (id = 1),
         height BIGINT NOT NULL,
         block_id VARCHAR(64) NOT NULL,
         supply NUMERIC(20,0) NOT NULL,
         state_hash CHAR(64) NOT NULL,
         round BIGINT NOT NULL,
         wallet_count BIGINT NOT NULL,
         updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS state_head');
    await runner.query('DROP TABLE IF EXISTS wallets');
  }
}
