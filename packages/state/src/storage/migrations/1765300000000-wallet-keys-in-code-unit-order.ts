import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * The wallets table's keys in code-unit order (`COLLATE "C"`), the order the in-memory ledger
 * and the api nodes' searches use: the primary key then serves the lookups and the order by
 * address alike, as the one username index serves both a wallet by username and the delegate
 * routes' filters, and a search by public key or vote reads its index. Each block writes two
 * index entries fewer per changed wallet, and compares keys byte by byte instead of by the
 * database's locale. Changing a column's collation rebuilds its indexes, not the table.
 */
export class WalletKeysInCodeUnitOrder1765300000000 implements MigrationInterface {
  name = 'WalletKeysInCodeUnitOrder1765300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE wallets ${KEYS.map(([column, type]) => `ALTER COLUMN ${column} TYPE ${type} COLLATE "C"`).join(', ')}`,
    );
    // Copies of the primary key and of wallets_delegate_username, now in the same order.
    await runner.query('DROP INDEX IF EXISTS wallets_address_c');
    await runner.query('DROP INDEX IF EXISTS wallets_delegate_username_c');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE wallets ${KEYS.map(([column, type]) => `ALTER COLUMN ${column} TYPE ${type} COLLATE "default"`).join(', ')}`,
    );
    await runner.query(
      'CREATE INDEX IF NOT EXISTS wallets_address_c ON wallets (address COLLATE "C")',
    );
    await runner.query(
      `CREATE INDEX IF NOT EXISTS wallets_delegate_username_c ON wallets
         (delegate_username COLLATE "C") WHERE delegate_username IS NOT NULL`,
    );
  }
}

/** The key columns with their types as the first wallet-state migration made them. */
const KEYS: readonly (readonly [column: string, type: string])[] = [
  ['address', 'VARCHAR(64)'],
  ['public_key', 'VARCHAR(66)'],
  ['vote', 'TEXT'],
  ['delegate_username', 'TEXT'],
];
