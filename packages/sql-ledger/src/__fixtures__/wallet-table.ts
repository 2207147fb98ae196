import { createLogger } from '@lni/kernel';
import { applySchemaMigrations, Database, databaseOptions, databaseSchema } from '@lni/database';
import { stateSchema, type Wallet } from '@lni/state';
import { WALLET_COLUMNS, walletRowOf } from '@lni/state/wallet-row';
import { createTestDatabase } from '../../../../test/support/postgres.js';

export { postgresSkipReason } from '../../../../test/support/postgres.js';

export const quietLogger = () => createLogger({ level: 'fatal' });

/** A fresh database with the chain's and state's tables (wallets, state_head, …). */
export async function openLedgerDatabase(): Promise<{
  readonly database: Database;
  dispose(): Promise<void>;
}> {
  const { connection, drop } = await createTestDatabase();
  const database = new Database({
    logger: quietLogger(),
    databaseOptions: databaseOptions({ connection, retry: { attempts: 1 } }),
    dataDirectory: '/nonexistent',
  });
  await database.open();
  await applySchemaMigrations(database, quietLogger(), [
    databaseSchema,
    { owner: 'state', migrations: stateSchema.migrations ?? [] },
  ]);
  return {
    database,
    async dispose() {
      await database.close();
      await drop();
    },
  };
}

const COLUMNS = [
  'address',
  'public_key',
  'balance',
  'nonce',
  'attributes',
  'updated_height',
  ...WALLET_COLUMNS.map((c) => c.column).filter(
    (c) => !['address', 'public_key', 'balance', 'nonce'].includes(c),
  ),
];

/**
 * Writes wallets as the state plugin does (wallets/wallet-row.ts), in batches, replacing rows
 * of the same address. Until the writer lands, the tests fill the table themselves.
 */
export async function writeWallets(
  database: Pick<Database, 'manager'>,
  wallets: Iterable<Wallet>,
  height: number,
): Promise<void> {
  let batch: Wallet[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch.map((wallet) => walletRowOf(wallet, height) as Record<string, unknown>);
    const values: unknown[] = [];
    const tuples = rows.map((row) => {
      const placeholders = COLUMNS.map((column) => {
        values.push(column === 'attributes' ? JSON.stringify(row[column]) : row[column]);
        return `$${values.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await database.manager.query(
      `INSERT INTO wallets (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
       ON CONFLICT (address) DO UPDATE SET ${COLUMNS.slice(1)
         .map((column) => `${column} = EXCLUDED.${column}`)
         .join(', ')}`,
      values,
    );
    batch = [];
  };
  for (const wallet of wallets) {
    batch.push(wallet);
    // PostgreSQL binds at most 65535 parameters per statement.
    if (batch.length >= 2_000) await flush();
  }
  await flush();
}

/** The head row as the writer keeps it. */
export async function writeHead(
  database: Pick<Database, 'manager'>,
  head: { height: number; blockId: string; supply: bigint; walletCount: number; round?: number },
): Promise<void> {
  await database.manager.query(
    `INSERT INTO state_head (id, height, block_id, supply, state_hash, round, wallet_count)
     VALUES (1, $1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET height = $1, block_id = $2, supply = $3, round = $5,
       wallet_count = $6, updated_at = now()`,
    [
      head.height,
      head.blockId,
      head.supply.toString(),
      '0'.repeat(64),
      head.round ?? 1,
      head.walletCount,
    ],
  );
}
