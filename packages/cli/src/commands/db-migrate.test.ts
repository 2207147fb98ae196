import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@lni/kernel';
import {
  Database,
  databaseOptions,
  detectSchemaState,
  generateLegacyDatabase,
} from '@lni/database';
import { networksDirectory } from '../networks.js';
import { runKernel } from '../testing/run-kernel.js';

const postgresUnavailable = process.env.LNI_TEST_POSTGRES === 'unavailable';

function connect(database: string, dataDirectory: string): Database {
  return new Database({
    logger: createLogger({ level: 'fatal' }),
    databaseOptions: databaseOptions({
      connection: { host: '127.0.0.1', database },
      retry: { attempts: 1 },
    }),
    dataDirectory,
  });
}

/** Runs one statement in the server's maintenance database (CREATE/DROP DATABASE). */
async function admin(sql: string): Promise<void> {
  const database = connect('postgres', tmpdir());
  await database.open();
  try {
    await database.manager.query(sql);
  } finally {
    await database.close();
  }
}

describe('kernel db:migrate', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-db-migrate-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("creates every plugin's tables of the mode in the embedded database of the data directory", async () => {
    const data = join(root, 'embedded-data');
    // A published testnet configuration without an app.json: the network's default one applies.
    await cp(join(networksDirectory, 'testnet', 'crypto'), join(root, 'config', 'crypto'), {
      recursive: true,
    });
    const run = runKernel(['db:migrate', '--config', join(root, 'config'), '--data', data]);
    expect((await run.exited()).code).toBe(0);
    expect(run.stdout()).toContain(`Database embedded PGlite at ${join(data, 'database')}`);
    expect(run.stdout()).toContain(
      // Plugin by plugin in dependency order: database, state, p2p, api.
      '15 migration(s) applied (InitialSchema1763900000000, RowTotals1764000000000, PaymentRecipients1764000000001, TransactionParties1764400000000, PartyCount1764500000000, PartyPairs1764600000000, PoolTransactions1764200000000, MissedSlots1764300000000, WalletState1765100000000, WalletSearchIndexes1765200000000, WalletKeysInCodeUnitOrder1765300000000, Peers1764100000000, Webhooks1764300000001, WebhookArkShape1764700000000, ConditionalDeliveries1765000000000)',
    );
  }, 60_000);

  it('refuses a batch size that is not a positive integer', async () => {
    const run = runKernel(['db:migrate', '--data', join(root, 'unused'), '--batch-rows', 'ten']);
    expect((await run.exited()).code).toBe(2);
    expect(run.stderr()).toContain("option '--batch-rows <n>' argument 'ten' is invalid");
  });

  it.skipIf(postgresUnavailable)(
    'a Ctrl-C after the last batch: says the upgrade finishes, completes it and exits 0',
    async () => {
      const name = `lni_test_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const database = connect(name, root);
      const blocker = connect(name, root);
      try {
        await database.open();
        await database.transaction((manager) =>
          generateLegacyDatabase(manager, { blocks: 20, transactionsPerBlock: 10 }),
        );
        // Holding a lock the final switch needs keeps the run past its last batch until released.
        await blocker.open();
        const runner = blocker.dataSource.createQueryRunner();
        await runner.startTransaction();
        await runner.query('LOCK TABLE blocks IN SHARE MODE');
        await cp(
          join(networksDirectory, 'testnet', 'crypto'),
          join(root, 'ctrl-c-config', 'crypto'),
          { recursive: true },
        );
        const run = runKernel(
          ['db:migrate', '--config', join(root, 'ctrl-c-config'), '--batch-rows', '50'],
          {
            CORE_LOG_LEVEL: 'info',
            CORE_DB_HOST: '127.0.0.1',
            CORE_DB_DATABASE: name,
          },
        );
        await run.waitFor('every batch copied', 30_000);
        run.child.kill('SIGINT');
        await run.waitFor('Past the last batch: finishing the upgrade, it cannot stop now');
        await runner.commitTransaction();
        await runner.release();
        expect((await run.exited()).code).toBe(0);
        expect(run.stderr()).not.toContain('Stopping after the current batch');
        expect(run.stdout()).toContain('upgraded 200 transactions from 2.7');
        expect(run.stderr()).toContain(
          'Interrupted after the last batch: the upgrade was completed, not stopped',
        );
        expect(await detectSchemaState(database.manager)).toBe('current');
      } finally {
        await blocker.close();
        await database.close();
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    },
    60_000,
  );

  it.skipIf(postgresUnavailable)(
    'upgrades a 2.7 PostgreSQL database, logging rows done, rate and ETA',
    async () => {
      const name = `lni_test_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const database = connect(name, root);
      try {
        await database.open();
        await database.transaction((manager) =>
          generateLegacyDatabase(manager, { blocks: 40, transactionsPerBlock: 25 }),
        );
        // The connection comes from the database plugin's options in app.json.
        const config = join(root, 'upgrade-config');
        await mkdir(config, { recursive: true });
        const plugin = {
          package: '@lni/database',
          options: { connection: { host: '127.0.0.1', database: name } },
        };
        await writeFile(join(config, 'app.json'), JSON.stringify({ core: { plugins: [plugin] } }));
        const run = runKernel(['db:migrate', '--config', config, '--batch-rows', '200'], {
          CORE_LOG_LEVEL: 'info',
        });
        expect((await run.exited()).code).toBe(0);
        expect(run.stdout()).toContain(
          `Database 127.0.0.1:5432/${name}: upgraded 1000 transactions from 2.7; 6 migration(s) applied`,
        );
        const progress = run
          .stderr()
          .split('\n')
          .filter((line) => line.includes('2.7 upgrade progress'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(progress.at(-1)).toMatchObject({ rowsDone: 1000, rowsTotal: 1000, etaSeconds: 0 });
        expect(progress.at(-1)?.rowsPerSecond).toBeGreaterThan(0);
        expect(await detectSchemaState(database.manager)).toBe('current');
      } finally {
        await database.close();
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    },
    60_000,
  );
});
