import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * Webhooks and their deliveries. A delivery is written when its event happens, with the exact
 * body that is signed and sent, and stays `pending` until the target answers 2xx, so a restart
 * or a crash loses none; each attempt is kept for `GET /api/webhooks/{id}/deliveries`. Times are
 * Unix milliseconds.
 */
export class Webhooks1764300000001 implements MigrationInterface {
  name = 'Webhooks1764300000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE IF NOT EXISTS webhooks (
         id VARCHAR(36) PRIMARY KEY,
         event VARCHAR(64) NOT NULL,
         target TEXT NOT NULL,
         enabled BOOLEAN NOT NULL,
         conditions JSONB NOT NULL,
         secret VARCHAR(64) NOT NULL,
         created_at BIGINT NOT NULL,
         failing_since BIGINT,
         disabled_reason TEXT
       )`,
    );
    await runner.query(
      `CREATE TABLE IF NOT EXISTS webhook_deliveries (
         id VARCHAR(36) PRIMARY KEY,
         webhook_id VARCHAR(36) NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
         body TEXT NOT NULL,
         status VARCHAR(16) NOT NULL,
         attempts INTEGER NOT NULL DEFAULT 0,
         next_attempt_at BIGINT NOT NULL,
         created_at BIGINT NOT NULL
       )`,
    );
    await runner.query(
      `CREATE INDEX IF NOT EXISTS webhook_deliveries_due
         ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await runner.query(
      'CREATE INDEX IF NOT EXISTS webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at DESC)',
    );
    await runner.query(
      `CREATE TABLE IF NOT EXISTS webhook_attempts (
         delivery_id VARCHAR(36) NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
         attempt INTEGER NOT NULL,
         at BIGINT NOT NULL,
         status_code INTEGER,
         error TEXT,
         PRIMARY KEY (delivery_id, attempt)
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS webhook_attempts');
    await runner.query('DROP TABLE IF EXISTS webhook_deliveries');
    await runner.query('DROP TABLE IF EXISTS webhooks');
  }
}
