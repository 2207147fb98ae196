import { definePlugin, type Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { makeChain } from './__fixtures__/chain.js';
import {
  createTestDatabase,
  openDatabase,
  postgresSkipReason,
  quietLogger,
} from './__fixtures__/postgres.js';
import { databaseEnv } from '../../../test/support/postgres.js';
import { startProxy } from './__fixtures__/tcp-proxy.js';
import { migrateDatabase } from './migrations/migrate.js';
import { databasePlugin } from './plugin.js';
import { generateLegacyDatabase } from './upgrade/legacy-generator.js';

describe('database plugin', () => {
  const directories: string[] = [];
  afterAll(async () => {
    await Promise.all(directories.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('boots on the embedded database in <data>/database and keeps the chain across a restart', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lni-db-'));
    directories.push(root);
    const paths = {
      config: join(root, 'config'),
      data: join(root, 'data'),
      log: join(root, 'log'),
    };
    const plugins = [{ plugin: databasePlugin, options: {} }];

    const first = await startTestKernel({ plugins, paths });
    expect(first.cradle.database.description).toBe(
      `embedded PGlite at ${join(paths.data, 'database')}`,
    );
    expect(first.logs).toContainEqual(
      expect.objectContaining({
        msg: 'Database connected',
        database: first.cradle.database.description,
      }),
    );
    await first.cradle.blockStorage.saveBlocks(makeChain(3, 2));
    await first.stop();
    // A lock left by a process that died (kill -9) does not keep the node out.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    await writeFile(join(paths.data, 'database', 'lni.pid'), String(dead.pid));

    const second = await startTestKernel({ plugins, paths });
    try {
      expect((await second.cradle.blockStorage.getLastBlock())?.height).toBe(3);
      const page = await second.cradle.transactionQuery.search({ limit: 10, offset: 0 });
      expect(page.totalCount).toBe(6);
      expect(second.logs).toContainEqual(
        expect.objectContaining({ msg: 'Stored chain verified', height: 3 }),
      );
    } finally {
      await second.stop();
    }
  }, 60_000);

  it.skipIf(postgresSkipReason)(
    'uses PostgreSQL from CORE_DB_* and refuses to start on a corrupted chain, naming the height',
    async () => {
      const created = await createTestDatabase();
      try {
        const env = databaseEnv(created.connection);
        const plugins = [{ plugin: databasePlugin, options: {} }];
        const withoutMigrations = [{ plugin: databasePlugin, options: { migrateOnStart: false } }];
        await expect(startTestKernel({ plugins: withoutMigrations, env })).rejects.toThrow(
          /pending migrations and migrateOnStart is off/,
        );
        const node = await startTestKernel({ plugins, env });
        expect(node.cradle.database.description).toBe(`127.0.0.1:5432/${created.name}`);
        await node.cradle.blockStorage.saveBlocks(makeChain(5, 1));
        await node.cradle.database.manager.query('DELETE FROM blocks WHERE height = 3');
        await node.stop();

        await expect(startTestKernel({ plugins, env })).rejects.toThrow(/height 3: block missing/);
      } finally {
        await created.drop();
      }
    },
  );

  it.skipIf(postgresSkipReason)(
    'lets a plugin that takes the integrity check over await it in its own boot: a corrupted chain stops that boot',
    async () => {
      const created = await createTestDatabase();
      try {
        const env = databaseEnv(created.connection);
        const node = await startTestKernel({
          plugins: [{ plugin: databasePlugin, options: {} }],
          env,
        });
        await node.cradle.blockStorage.saveBlocks(makeChain(5, 1));
        await node.cradle.database.manager.query('DELETE FROM blocks WHERE height = 3');
        await node.stop();

        let databaseBooted = false;
        const taker = definePlugin<object>({
          name: 'taker',
          dependsOn: { required: ['database'] },
          register({ container }) {
            container.cradle.chainVerification.takeOver('taker');
          },
          async boot({ container }) {
            // The database plugin's boot finished without the check's result.
            databaseBooted = true;
            await container.cradle.chainVerification.verified();
          },
        });
        await expect(
          startTestKernel({
            plugins: [
              { plugin: databasePlugin, options: {} },
              { plugin: taker as Plugin<object>, options: {} },
            ],
            env,
          }),
        ).rejects.toThrow(/plugin 'taker' failed to boot: .*height 3: block missing/);
        expect(databaseBooted).toBe(true);
      } finally {
        await created.drop();
      }
    },
  );

  it.skipIf(postgresSkipReason)(
    'refuses a server older than PostgreSQL 12 before writing anything, naming the version',
    async () => {
      const created = await createTestDatabase();
      const env = databaseEnv(created.connection);
      // Read past the node, which refuses this database: what start-up left in it.
      const userTables = async () => {
        const { host, port, username, database } = created.connection;
        const client = new pg.Client({ host, port, user: username, database });
        await client.connect();
        try {
          const { rows } = await client.query<{ tables: number }>(
            "SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
          );
          return rows[0]?.tables;
        } finally {
          await client.end();
        }
      };
      try {
        // No server older than 12 exists here: this database answers the settings the node
        // reads as an 11.22 server would, through a schema searched before pg_catalog.
        const database = await openDatabase(created.options);
        try {
          await database.manager.query('CREATE SCHEMA old_server');
          await database.manager.query(`
            CREATE FUNCTION old_server.current_setting(name text) RETURNS text LANGUAGE sql AS $$
              SELECT CASE name
                WHEN 'server_version_num' THEN '110022'
                WHEN 'server_version' THEN '11.22 (Debian 11.22-1.pgdg120+1)'
                ELSE pg_catalog.current_setting(name) END
            $$`);
          await database.manager.query(
            `ALTER DATABASE ${created.name} SET search_path = old_server, pg_catalog, public`,
          );
        } finally {
          await database.close();
        }
        await expect(
          startTestKernel({ plugins: [{ plugin: databasePlugin, options: {} }], env }),
        ).rejects.toThrow(
          `Cannot use the database (127.0.0.1:5432/${created.name}): PostgreSQL 11.22 is too old: LNI needs 12 or later`,
        );
        // migrateOnStart was on: the refusal came first, so no migration created a table.
        expect(await userTables()).toBe(0);
      } finally {
        await created.drop();
      }
    },
  );

  it.skipIf(postgresSkipReason)(
    "boots on a 2.7 database upgraded by db:migrate, whose genesis block names previous block '0'",
    async () => {
      const created = await createTestDatabase();
      const env = databaseEnv(created.connection);
      const plugins = [{ plugin: databasePlugin, options: {} }];
      try {
        const database = await openDatabase(created.options);
        try {
          await database.transaction((manager) =>
            generateLegacyDatabase(manager, { blocks: 20, transactionsPerBlock: 3 }),
          );
          await migrateDatabase(database, { logger: quietLogger() });
        } finally {
          await database.close();
        }
        const node = await startTestKernel({ plugins, env });
        expect(node.logs).toContainEqual(
          expect.objectContaining({ msg: 'Stored chain verified', height: 20 }),
        );
        // A database an earlier release upgraded kept ARK's '0': it starts as well.
        await node.cradle.database.manager.query(
          "UPDATE blocks SET previous_block = '0' WHERE height = 1",
        );
        await node.stop();
        await (await startTestKernel({ plugins, env })).stop();
      } finally {
        await created.drop();
      }
    },
    60_000,
  );

  it.skipIf(postgresSkipReason)('reports the database going away and coming back', async () => {
    const created = await createTestDatabase();
    const proxy = await startProxy(5432);
    const connection = { host: '127.0.0.1', port: proxy.port, database: created.name };
    // A long interval: only the failed write below can notice the outage in time.
    const options = { connection, healthCheckIntervalMs: 600_000 };
    const node = await startTestKernel({ plugins: [{ plugin: databasePlugin, options }] });
    try {
      const { database, events, blockStorage } = node.cradle;
      const seen: string[] = [];
      events.on('database.unavailable', () => void seen.push('unavailable'));
      events.on('database.available', () => void seen.push('available'));
      await proxy.cut();
      const unavailable = events.once('database.unavailable');
      await expect(blockStorage.saveBlocks(makeChain(1, 1))).rejects.toThrow();
      expect((await unavailable).reason).toBeTruthy();
      expect(database.available).toBe(false);
      await proxy.restore();
      expect(await database.checkAvailability()).toBe(true);
      expect(database.available).toBe(true);
      await blockStorage.saveBlocks(makeChain(1, 1));
      expect((await blockStorage.getLastBlock())?.height).toBe(1);
      expect(seen).toEqual(['unavailable', 'available']);
    } finally {
      await node.stop();
      await proxy.close();
      await created.drop();
    }
  });
});
