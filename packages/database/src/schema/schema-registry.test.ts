import { definePlugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChain } from '../__fixtures__/chain.js';
import { createTestDatabase, postgresSkipReason } from '../__fixtures__/postgres.js';
import { databaseEnv } from '../../../../test/support/postgres.js';
import { databasePlugin } from '../plugin.js';
import type {} from '../contracts.js';
import { SchemaRegistry } from './schema-registry.js';

/**
 * A plugin's own table, as an author outside the repository writes it. Its timestamp is older
 * than most of the database plugin's migrations, yet it runs after them: plugins migrate in
 * dependency order, and its foreign key needs the blocks table those create.
 */
class AddressWatch1700000000000 implements MigrationInterface {
  name = 'AddressWatch1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE address_watch (
         address varchar(34) PRIMARY KEY,
         seen_at_height integer REFERENCES blocks (height) ON DELETE CASCADE
       )`,
    );
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE address_watch');
  }
}

const watchPlugin = definePlugin({
  name: 'address-watch',
  dependsOn: { required: ['database'] },
  register({ container }) {
    container.cradle.schemaRegistry.add('address-watch', {
      migrations: [AddressWatch1700000000000],
    });
  },
});

describe('schema registry', () => {
  it('stops start-up when two plugins register a migration of the same name, naming both', () => {
    const registry = new SchemaRegistry();
    registry.add('database', { migrations: [AddressWatch1700000000000] });
    expect(() => registry.add('other', { migrations: [AddressWatch1700000000000] })).toThrow(
      "migration AddressWatch1700000000000 of plugin 'other' is already registered by plugin 'database'",
    );
  });

  it('refuses a migration whose name does not end with its timestamp', () => {
    class Unnamed implements MigrationInterface {
      async up(): Promise<void> {}
      async down(): Promise<void> {}
    }
    expect(() => new SchemaRegistry().add('p', { migrations: [Unnamed] })).toThrow(
      /must end its name with a 13-digit timestamp/,
    );
  });
});

describe.skipIf(postgresSkipReason)('a plugin that owns a table (PostgreSQL)', () => {
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await createTestDatabase();
    env = databaseEnv(created.connection);
    drop = created.drop;
  });
  afterAll(async () => {
    await drop?.();
  });
  const plugins = [
    { plugin: databasePlugin, options: {} },
    { plugin: watchPlugin, options: {} },
  ];

  it('has its migration applied at boot after those it depends on, logged once as a count', async () => {
    const node = await startTestKernel({ plugins, env });
    try {
      await node.cradle.blockStorage.saveBlocks(makeChain(2, 0));
      await node.cradle.database.manager.query("INSERT INTO address_watch VALUES ('AWatched', 2)");
      const info = node.logs.filter((log) => log.msg === 'Migrations applied');
      // The database plugin's 6 and the plugin's 1, one line at info.
      expect(info).toEqual([expect.objectContaining({ count: 7, level: 30 })]);
      const each = node.logs.filter((log) => log.msg === 'Migration applied');
      expect(each).toHaveLength(7);
      expect(each.every((log) => log.level === 20)).toBe(true);
      expect(each.at(-1)).toEqual(
        expect.objectContaining({
          migration: 'AddressWatch1700000000000',
          plugin: 'address-watch',
        }),
      );
    } finally {
      await node.stop();
    }
  }, 60_000);

  it('runs nothing again on the next start, and the rows are kept', async () => {
    const node = await startTestKernel({ plugins, env });
    try {
      expect(node.logs.some((log) => String(log.msg).startsWith('Migration'))).toBe(false);
      const rows = (await node.cradle.database.manager.query(
        'SELECT address FROM address_watch',
      )) as { address: string }[];
      expect(rows).toEqual([{ address: 'AWatched' }]);
    } finally {
      await node.stop();
    }
  }, 60_000);

  it('refuses to start with its migration pending when migrateOnStart is off', async () => {
    const fresh = await createTestDatabase();
    try {
      const env = databaseEnv(fresh.connection);
      await startTestKernel({ plugins: [{ plugin: databasePlugin, options: {} }], env }).then(
        (node) => node.stop(),
      );
      await expect(
        startTestKernel({
          plugins: [
            { plugin: databasePlugin, options: { migrateOnStart: false } },
            { plugin: watchPlugin, options: {} },
          ],
          env,
        }),
      ).rejects.toThrow(/pending migrations and migrateOnStart is off/);
    } finally {
      await fresh.drop();
    }
  }, 60_000);
});
