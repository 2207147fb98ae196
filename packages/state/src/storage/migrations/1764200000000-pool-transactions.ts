import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * The transaction pool, kept as transactions are accepted so that a crash (kill -9, power loss)
 * loses none of them. `sequence` is the order of acceptance: restoring in that order replays each
 * sender's transactions in nonce order. `added_at` is the arrival time (Unix ms), which the pool's
 * age limit counts from.
 */
export class PoolTransactions1764200000000 implements MigrationInterface {
  name = 'PoolTransactions1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE IF NOT EXISTS pool_transactions (
         sequence BIGSERIAL PRIMARY KEY,
         id VARCHAR(64) NOT NULL UNIQUE,
         serialized BYTEA NOT NULL,
         added_at BIGINT NOT NULL
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS pool_transactions');
  }
}
