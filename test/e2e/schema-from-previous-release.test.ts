import { apiSchema } from '@lni/api';
import databasePlugin, {
  databaseSchema,
  hasPendingMigrations,
  type MigrationClass,
} from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import { p2pSchema } from '@lni/p2p';
import statePlugin, { stateSchema } from '@lni/state';
import apiPlugin from '@lni/api';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterAll, describe, expect, it } from 'vitest';
import { TESTNET } from '../support/ledger-node.js';
import { createTestDatabase, postgresSkipReason } from '../support/postgres.js';

type Connection = Awaited<ReturnType<typeof createTestDatabase>>['connection'];

/** Every migration of the release before the tables moved to their plugins, oldest first. */
const previousRelease: MigrationClass[] = [
  ...databaseSchema.migrations,
  ...(p2pSchema.migrations ?? []),
  ...(stateSchema.migrations ?? []),
  ...(apiSchema.migrations ?? []),
];

/**
 * Migrates as the previous release did: TypeORM's own runner, every migration in one list
 * sorted by timestamp, recorded in `lni_migrations`.
 */
async function migrateAsPreviousRelease(connection: Connection, migrations: MigrationClass[]) {
  const source = new DataSource({
    type: 'postgres',
    host: connection.host,
    port: connection.port,
    database: connection.database,
    username: connection.username,
    migrations,
    migrationsTableName: 'lni_migrations',
    migrationsTransactionMode: 'each',
  });
  await source.initialize();
  try {
    await source.runMigrations({ transaction: 'each' });
    await source.query("INSERT INTO peers VALUES ('10.0.0.1', 4002, '3.0.0', 5, now())");
  } finally {
    await source.destroy();
  }
}

describe.skipIf(postgresSkipReason)('a database made by the previous release', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function startNode(connection: Connection) {
    const root = await mkdtemp(join(tmpdir(), 'lni-schema-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await cp(join(TESTNET, 'crypto'), join(root, 'config', 'crypto'), { recursive: true });
    return startTestKernel({
      plugins: [
        { plugin: databasePlugin as Plugin<object>, options: { connection } },
        { plugin: statePlugin as Plugin<object>, options: { verificationWorkers: 0 } },
        {
          plugin: apiPlugin as Plugin<object>,
          options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
        },
      ],
      paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
    });
  }

  async function prepared(migrations: MigrationClass[]) {
    const created = await createTestDatabase();
    cleanups.push(created.drop);
    await migrateAsPreviousRelease(created.connection, migrations);
    return created.connection;
  }

  it('starts without running any migration again, its rows kept', async () => {
    const connection = await prepared(previousRelease);
    const node = await startNode(connection);
    try {
      expect(node.logs.filter((log) => log.msg === 'Migrations applied')).toEqual([]);
      const { database } = node.cradle;
      const recorded = (await database.manager.query(
        'SELECT count(*)::int AS n FROM lni_migrations',
      )) as { n: number }[];
      expect(recorded).toEqual([{ n: previousRelease.length }]);
      expect(await database.manager.query('SELECT ip, port FROM peers')).toEqual([
        { ip: '10.0.0.1', port: 4002 },
      ]);
      // Nor would p2p, which this node does not run: its peers table was made by the release.
      expect(
        await hasPendingMigrations(database, [
          databaseSchema,
          { owner: 'p2p', migrations: p2pSchema.migrations ?? [] },
          { owner: 'state', migrations: stateSchema.migrations ?? [] },
          { owner: 'api', migrations: apiSchema.migrations ?? [] },
        ]),
      ).toBe(false);
    } finally {
      await node.stop();
    }
  }, 90_000);

  it('applies only what the release had not, with its owner', async () => {
    const latest = previousRelease.find((m) => m.name === 'WebhookArkShape1764700000000');
    const connection = await prepared(previousRelease.filter((m) => m !== latest));
    const node = await startNode(connection);
    try {
      expect(node.logs.filter((log) => log.msg === 'Migrations applied')).toEqual([
        expect.objectContaining({ count: 1 }),
      ]);
      expect(node.logs.filter((log) => log.msg === 'Migration applied')).toEqual([
        expect.objectContaining({ migration: 'WebhookArkShape1764700000000', plugin: 'api' }),
      ]);
    } finally {
      await node.stop();
    }
  }, 90_000);

  it('on a fresh database says at info only how many migrations it applied', async () => {
    const created = await createTestDatabase();
    cleanups.push(created.drop);
    const node = await startNode(created.connection);
    try {
      const lines = node.logs.filter((log) => String(log.msg).startsWith('Migration'));
      const info = lines.filter((log) => (log.level as number) >= 30);
      // The database plugin's 6, state's 5 (pool, missed slots, wallet state, wallet search
      // indexes, wallet keys in code-unit order), the API's 3 (webhooks, their ARK shape,
      // conditional deliveries).
      expect(info).toEqual([expect.objectContaining({ msg: 'Migrations applied', count: 14 })]);
      expect(lines.filter((log) => log.msg === 'Migration applied').map((l) => l.plugin)).toEqual([
        ...Array(6).fill('database'),
        ...Array(5).fill('state'),
        'api',
        'api',
        'api',
      ]);
    } finally {
      await node.stop();
    }
  }, 90_000);
});
