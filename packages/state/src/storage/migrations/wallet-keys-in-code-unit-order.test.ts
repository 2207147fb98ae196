import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@lni/kernel';
import { applySchemaMigrations, Database, databaseOptions, databaseSchema } from '@lni/database';
import { createTestDatabase, postgresSkipReason } from '../../../../../test/support/postgres.js';
import { stateSchema } from '../state-schema.js';
import { WalletKeysInCodeUnitOrder1765300000000 } from './1765300000000-wallet-keys-in-code-unit-order.js';

const KEYS = ['address', 'public_key', 'vote', 'delegate_username'];

describe.skipIf(postgresSkipReason)('wallet keys in code-unit order (migration)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  const logger = createLogger({ level: 'fatal' });
  const migrations = stateSchema.migrations ?? [];
  const schemaWith = (state: typeof migrations) => [
    databaseSchema,
    { owner: 'state', migrations: state },
  ];

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    database = new Database({
      logger,
      databaseOptions: databaseOptions({ connection: created.connection, retry: { attempts: 1 } }),
      dataDirectory: '/nonexistent',
    });
    await database.open();
    // A database of the release before: every state migration but this one, and a wallet.
    await applySchemaMigrations(
      database,
      logger,
      schemaWith(migrations.filter((m) => m !== WalletKeysInCodeUnitOrder1765300000000)),
    );
    await database.manager.query(
      `INSERT INTO wallets (address, public_key, balance, nonce, attributes, updated_height,
         vote, delegate_username)
       VALUES ('AKeptWallet', '02aa', 5, 1, '{}', 7, '03bb', 'kept')`,
    );
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const collations = async () =>
    (await database.manager.query(
      `SELECT column_name, collation_name FROM information_schema.columns
       WHERE table_name = 'wallets' AND column_name = ANY($1) ORDER BY column_name`,
      [KEYS],
    )) as { column_name: string; collation_name: string | null }[];
  const indexes = async () =>
    (
      (await database.manager.query(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'wallets' ORDER BY indexname",
      )) as { indexname: string }[]
    ).map((row) => row.indexname);

  it('puts the keys in "C", drops the copies of the primary key and username index, keeps the rows', async () => {
    expect(await indexes()).toEqual(
      expect.arrayContaining(['wallets_address_c', 'wallets_delegate_username_c']),
    );
    await applySchemaMigrations(database, logger, schemaWith(migrations));
    expect(await collations()).toEqual(
      [...KEYS].sort().map((column_name) => ({ column_name, collation_name: 'C' })),
    );
    const after = await indexes();
    expect(after).not.toContain('wallets_address_c');
    expect(after).not.toContain('wallets_delegate_username_c');
    expect(after).toEqual(
      expect.arrayContaining(['wallets_pkey', 'wallets_public_key', 'wallets_delegate_username']),
    );
    expect(
      await database.manager.query(
        'SELECT address, updated_height::int AS height FROM wallets WHERE delegate_username = $1',
        ['kept'],
      ),
    ).toEqual([{ address: 'AKeptWallet', height: 7 }]);
  });

  it('reverts to the database collation and the indexes it replaced', async () => {
    await database.transaction((manager) =>
      new WalletKeysInCodeUnitOrder1765300000000().down(
        manager.queryRunner as Parameters<WalletKeysInCodeUnitOrder1765300000000['down']>[0],
      ),
    );
    expect((await collations()).map((row) => row.collation_name)).toEqual([null, null, null, null]);
    expect(await indexes()).toEqual(
      expect.arrayContaining(['wallets_address_c', 'wallets_delegate_username_c']),
    );
  });
});
