import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  openDatabase,
  postgresSkipReason,
  quietLogger,
} from '../__fixtures__/postgres.js';
import type { Database } from '../connection/database.js';
import type { DatabaseOptions } from '../config.js';
import { MigrationError } from '../errors.js';
import { checkChainIntegrity } from '../integrity/integrity-check.js';
import { applySchemaMigrations, migrateDatabase } from '../migrations/migrate.js';
import { detectSchemaState } from '../migrations/schema-state.js';
import { BlockStorage } from '../storage/block-storage.js';
import { generateLegacyDatabase, legacyIds } from './legacy-generator.js';
import type { UpgradeProgress } from './legacy-upgrade.js';

const BLOCKS = 60;
const PER_BLOCK = 10;
const TOTAL = BLOCKS * PER_BLOCK;
const runner = fileURLToPath(new URL('../__fixtures__/run-upgrade.ts', import.meta.url));

/** Starts the upgrade in a child process and SIGKILLs it once `rows` rows are committed. */
function killMidway(name: string, rows: number): Promise<UpgradeProgress> {
  const child = spawn(process.execPath, ['--import', 'tsx', runner, name, '50', '150'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let last: UpgradeProgress | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'done') return reject(new Error('the upgrade finished before the kill'));
      last = JSON.parse(line) as UpgradeProgress;
      if (last.rowsDone >= rows) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL' && last) resolve(last);
      else reject(new Error(`upgrade process exited without being killed (${signal})`));
    });
  });
}

describe.skipIf(postgresSkipReason)('2.7 upgrade on PostgreSQL', () => {
  let database: Database;
  let options: DatabaseOptions;
  let name: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await createTestDatabase();
    ({ name, options, drop } = created);
    database = await openDatabase(options);
    await database.transaction((manager) =>
      generateLegacyDatabase(manager, { blocks: BLOCKS, transactionsPerBlock: PER_BLOCK }),
    );
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('a 3.0 node refuses a 2.7 database and names the command that upgrades it', async () => {
    await expect(applySchemaMigrations(database, quietLogger())).rejects.toThrow(MigrationError);
    await expect(applySchemaMigrations(database, quietLogger())).rejects.toThrow(
      /kernel db:migrate/,
    );
  });

  it('stops between batches when aborted, keeping what it committed', async () => {
    const controller = new AbortController();
    const seen: UpgradeProgress[] = [];
    const run = migrateDatabase(database, {
      logger: quietLogger(),
      batchRows: 50,
      signal: controller.signal,
      onProgress: (progress) => {
        seen.push(progress);
        if (progress.rowsDone >= 100) controller.abort();
      },
    });
    await expect(run).rejects.toThrow(/interrupted at height 10 \(100 of 600 rows\); run it again/);
    expect(await detectSchemaState(database.manager)).toBe('legacy');
    expect(seen.at(-1)).toEqual({ rowsDone: 100, rowsTotal: TOTAL, height: 10 });
  });

  it('killed with SIGKILL mid-way it leaves 2.7 intact; run again it resumes and finishes', async () => {
    const killedAt = await killMidway(name, 150);
    expect(killedAt.rowsDone).toBeLessThan(TOTAL);

    // Still a complete 2.7 database: nothing switched, nothing lost.
    expect(await detectSchemaState(database.manager)).toBe('legacy');
    const legacyCount = (await database.manager.query(
      'SELECT count(*)::int AS n FROM transactions',
    )) as {
      n: number;
    }[];
    expect(legacyCount[0]?.n).toBe(TOTAL);

    const seen: UpgradeProgress[] = [];
    const result = await migrateDatabase(database, {
      logger: quietLogger(),
      batchRows: 100,
      onProgress: (progress) => seen.push(progress),
    });
    // It continued from the checkpoint instead of starting over.
    expect(seen[0]?.rowsDone).toBeGreaterThanOrEqual(killedAt.rowsDone);
    expect(seen[0]?.rowsDone).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ rowsDone: TOTAL, rowsTotal: TOTAL, height: BLOCKS });
    expect(result).toEqual({
      upgradedRows: TOTAL,
      applied: [
        'InitialSchema1763900000000',
        'RowTotals1764000000000',
        'PaymentRecipients1764000000001',
        'TransactionParties1764400000000',
        'PartyCount1764500000000',
        'PartyPairs1764600000000',
      ],
    });
    // The kept totals count the upgraded rows, and every one is indexed by its sender.
    const [totals] = (await database.manager.query(
      'SELECT sum(count) AS count FROM transaction_totals',
    )) as { count: string }[];
    expect(Number(totals?.count)).toBe(TOTAL);
    const [senders] = (await database.manager.query(
      'SELECT sum(count) AS count FROM party_totals WHERE role = 0',
    )) as { count: string }[];
    expect(Number(senders?.count)).toBe(TOTAL);

    expect(await detectSchemaState(database.manager)).toBe('current');
    expect(await checkChainIntegrity(database.manager)).toBe(BLOCKS);
    const storage = new BlockStorage({ database });
    // The genesis block's previous block stays '0', as ARK 3.0 keeps it in its own tables; the
    // node reads it as none, as it reads the NULL it writes itself.
    const [genesisRow] = (await database.manager.query(
      'SELECT previous_block FROM blocks WHERE height = 1',
    )) as { previous_block: string | null }[];
    expect(genesisRow?.previous_block).toBe('0');
    expect((await storage.getBlockByHeight(1))?.previousBlock).toBeNull();
    const block = await storage.getBlockByHeight(37);
    expect(block?.id).toBe(legacyIds.block(37));
    expect(block?.previousBlock).toBe(legacyIds.block(36));
    const transactions = await storage.getTransactionsByBlockId(legacyIds.block(37));
    expect(transactions.map((t) => [t.id, t.blockHeight, t.sequence])).toEqual(
      Array.from({ length: PER_BLOCK }, (_, s) => [legacyIds.transaction(37, s), 37, s]),
    );
    expect(transactions[0]).toMatchObject({ vendorField: 'payment 37', amount: 100_000_000n });
    expect(transactions[1]?.asset).toEqual({
      votes: [`+02${(37 % 51).toString(16).padStart(64, '0')}`],
    });
    expect(transactions[0]?.timestamp).toBe(block?.timestamp);

    const leftovers = (await database.manager.query(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() ORDER BY table_name`,
    )) as { table_name: string }[];
    // The database plugin's own tables; the other plugins add theirs at boot.
    expect(leftovers.map((row) => row.table_name)).toEqual([
      'block_totals',
      'blocks',
      'lni_migrations',
      'party_pair_totals',
      'party_totals',
      'rounds',
      'transaction_parties',
      'transaction_totals',
      'transactions',
      'wide_transaction_parties',
    ]);
    // Running again is a no-op.
    expect(await migrateDatabase(database, { logger: quietLogger() })).toEqual({ applied: [] });
  });
});
