import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * The plugin's one table. A sighting belongs to its block: reverting the block (a fork) deletes
 * the block's row and, by the cascade, its sightings, so the table never shows a sighting the
 * chain no longer holds.
 */
export class AddressWatchSightings1765000000000 implements MigrationInterface {
  name = 'AddressWatchSightings1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE address_watch_sightings (
      address varchar(34) NOT NULL,
      transaction_id varchar(64) NOT NULL,
      block_height integer NOT NULL REFERENCES blocks (height) ON DELETE CASCADE,
      amount bigint NOT NULL,
      direction varchar(3) NOT NULL CHECK (direction IN ('in', 'out')),
      PRIMARY KEY (address, transaction_id, direction))`);
    // The route pages one address's sightings newest first.
    await runner.query(
      'CREATE INDEX address_watch_sightings_by_address ON address_watch_sightings (address, block_height DESC)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE address_watch_sightings');
  }
}
