import { createLogger } from '@lni/kernel';
import { applySchemaMigrations, Database, databaseOptions, databaseSchema } from '@lni/database';
import { stateSchema, type Wallet } from '@lni/state';
import { UPSERT_WALLET_ROWS, walletRowColumns } from '@lni/state/wallet-row';
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

/** Writes wallets as the state plugin's writer does, replacing rows of the same address. */
export async function writeWallets(
  database: Pick<Database, 'manager'>,
  wallets: Iterable<Wallet>,
  height: number,
): Promise<void> {
  await database.manager.query(UPSERT_WALLET_ROWS, walletRowColumns(wallets, height));
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
