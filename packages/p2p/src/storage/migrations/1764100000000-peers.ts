import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * Peers and penalties of the P2P layer, so that a restart neither forgets the network it knew
 * nor lifts a ban: `peers` holds every peer verified once (dialled again after a restart),
 * `peer_penalties` each misbehaving IP's score and ban.
 */
export class Peers1764100000000 implements MigrationInterface {
  name = 'Peers1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE IF NOT EXISTS peers (
         ip varchar(45) NOT NULL,
         port integer NOT NULL,
         version varchar(64) NOT NULL,
         height bigint NOT NULL,
         last_seen timestamptz NOT NULL,
         PRIMARY KEY (ip, port)
       )`,
    );
    await runner.query(
      `CREATE TABLE IF NOT EXISTS peer_penalties (
         ip varchar(45) PRIMARY KEY,
         score integer NOT NULL,
         last_at timestamptz NOT NULL,
         banned_until timestamptz,
         reason text NOT NULL
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS peer_penalties');
    await runner.query('DROP TABLE IF EXISTS peers');
  }
}
