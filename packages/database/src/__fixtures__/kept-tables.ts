import { Writable } from 'node:stream';
import { createLogger } from '@lni/kernel';
import type { MigrationInterface } from 'typeorm';
import { expect } from 'vitest';
import type { Database } from '../connection/database.js';
import { withMigrationLogger } from '../migrations/migration-logger.js';
import type { BlockWithTransactions } from '../records.js';
import type { BlockStorage } from '../storage/block-storage.js';

/**
 * Changes the stored chain every way a node does, running `check` (kept tables agree with the
 * rows) after each: `chain(26, 5)` applied, blocks above 17 reverted, above 11 deleted by hand
 * (the cascade), then a write that fails half-way, which must leave them as they were.
 */
export async function changeChainEveryWay(
  database: Database,
  storage: BlockStorage,
  chain: (blocks: number, from: number) => BlockWithTransactions[],
  check: () => Promise<void>,
): Promise<void> {
  await storage.saveBlocks(chain(26, 5));
  await check();
  await storage.deleteBlocksAbove(17);
  await check();
  await database.manager.query('DELETE FROM blocks WHERE height > 11');
  await check();
  const [good, bad] = chain(2, 12) as [BlockWithTransactions, BlockWithTransactions];
  const clash = { ...bad.transactions[0]!, id: good.transactions[0]!.id };
  await expect(
    storage.saveBlocks([good, { ...bad, transactions: [clash, ...bad.transactions.slice(1)] }]),
  ).rejects.toThrow();
  await check();
}

/** Runs `migration.up` in a transaction as the migrator does: the messages it logged. */
export async function migrateUpLogged(
  database: Database,
  migration: MigrationInterface,
): Promise<string[]> {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
      done();
    },
  });
  const logger = createLogger({ level: 'info', out, pretty: false });
  await withMigrationLogger(logger, () =>
    database.transaction((manager) => migration.up(manager.queryRunner!)),
  );
  return lines;
}
