import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * The orders of the wallet and delegate routes as api nodes query them (packages/sql-ledger):
 * text in code-unit order (`COLLATE "C"`, whatever the database's collation), and ties by
 * address in the direction of the first key, so that a page is read from an index in order and
 * a cursor starts the scan where the last page ended. They replace the first wallet-state
 * migration's indexes of the same orders, which ordered ties ascending in the database's
 * collation: no query used them, and each costs the writer an update per changed wallet.
 */
export class WalletSearchIndexes1765200000000 implements MigrationInterface {
  name = 'WalletSearchIndexes1765200000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const replaced of [
      'wallets_balance',
      'wallets_vote',
      'wallets_delegate_rank',
      'wallets_delegate_vote_balance',
    ]) {
      await runner.query(`DROP INDEX IF EXISTS ${replaced}`);
    }
    for (const [name, definition] of Object.entries(INDEXES)) {
      await runner.query(`CREATE INDEX IF NOT EXISTS ${name} ON wallets ${definition}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const name of Object.keys(INDEXES)) await runner.query(`DROP INDEX IF EXISTS ${name}`);
    const previous: Record<string, string> = {
      wallets_balance: '(balance DESC, address)',
      wallets_vote: '(vote, balance DESC, address) WHERE vote IS NOT NULL',
      wallets_delegate_rank: '(delegate_rank, address) WHERE delegate_username IS NOT NULL',
      wallets_delegate_vote_balance:
        '(delegate_vote_balance DESC, address) WHERE delegate_username IS NOT NULL',
    };
    for (const [name, definition] of Object.entries(previous)) {
      await runner.query(`CREATE INDEX IF NOT EXISTS ${name} ON wallets ${definition}`);
    }
  }
}

const ADDRESS = 'address COLLATE "C"';
const DELEGATES = 'WHERE delegate_username IS NOT NULL';

/** By route: wallets by address (and their cursors), /wallets and /wallets/top, voters, delegates, locks. */
const INDEXES: Readonly<Record<string, string>> = {
  wallets_address_c: `(${ADDRESS})`,
  wallets_balance_c: `(balance DESC, ${ADDRESS} DESC)`,
  wallets_vote_c: `(vote COLLATE "C", balance DESC, ${ADDRESS} DESC) WHERE vote IS NOT NULL`,
  wallets_delegate_rank_c: `(delegate_rank, ${ADDRESS}) ${DELEGATES}`,
  wallets_delegate_vote_balance_c: `(delegate_vote_balance DESC, ${ADDRESS} DESC) ${DELEGATES}`,
  wallets_delegate_username_c: `(delegate_username COLLATE "C") ${DELEGATES}`,
  wallets_htlc_locked_balance: `(htlc_locked_balance) WHERE htlc_locked_balance IS NOT NULL`,
};
