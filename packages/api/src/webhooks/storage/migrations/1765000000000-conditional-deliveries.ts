import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * Deliveries are written `conditional` when their webhook has conditions and tested by the
 * sender after the commit; it looks for them on every pass, among all the deliveries ever kept,
 * so they get an index of their own (empty most of the time).
 */
export class ConditionalDeliveries1765000000000 implements MigrationInterface {
  name = 'ConditionalDeliveries1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX IF NOT EXISTS webhook_deliveries_conditional
         ON webhook_deliveries (created_at) WHERE status = 'conditional'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX IF EXISTS webhook_deliveries_conditional');
  }
}
