import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * Slots a scheduled delegate let pass without a block, recorded with the block that followed
 * the gap (`height`), so that reverting that block forgets them. `timestamp` is the slot's start
 * in seconds since the network epoch.
 */
export class MissedSlots1764300000000 implements MigrationInterface {
  name = 'MissedSlots1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE IF NOT EXISTS missed_slots (
         slot BIGINT PRIMARY KEY,
         height BIGINT NOT NULL,
         round BIGINT NOT NULL,
         timestamp BIGINT NOT NULL,
         public_key VARCHAR(66) NOT NULL
       )`,
    );
    await runner.query(
      'CREATE INDEX IF NOT EXISTS missed_slots_public_key_slot ON missed_slots (public_key, slot DESC)',
    );
    await runner.query('CREATE INDEX IF NOT EXISTS missed_slots_height ON missed_slots (height)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS missed_slots');
  }
}
