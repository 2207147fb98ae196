import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@lni/database';
import type { Wallet } from '@lni/state';
import type { WalletSearch } from '@lni/state/contracts';
import {
  openLedgerDatabase,
  postgresSkipReason,
  writeHead,
  writeWallets,
} from '../__fixtures__/wallet-table.js';
import { randomWallets } from '../__fixtures__/random-wallets.js';
import { SqlWalletSearch } from './sql-wallet-search.js';
import { StatementBatches } from './statement-batches.js';
import { WalletViews } from './wallet-views.js';

const WALLETS = randomWallets(60, 10, 7);
const HEIGHT = 7;
const FAR = Date.now() + 3_600_000;
const BY_ADDRESS: WalletSearch = {
  conditions: [],
  orderBy: [{ field: 'address', direction: 'asc' }],
  offset: 0,
  limit: 5,
};

/** The wallet with its nonce moved on by `step`: a new row, written at the same height. */
const moved = (wallet: Wallet, step: number): Wallet => ({
  ...wallet,
  nonce: wallet.nonce + BigInt(step),
});

describe.skipIf(postgresSkipReason)('SQL wallet search, rows read by version', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let first: Wallet;

  beforeAll(async () => {
    ({ database, dispose } = await openLedgerDatabase());
    await writeWallets(database, WALLETS, HEIGHT);
    await writeHead(database, { height: HEIGHT, blockId: 'b7', supply: 1n, walletCount: 60 });
    const page = await new SqlWalletSearch({
      database,
      statements: new StatementBatches({ database }),
      views: new WalletViews(),
    }).search('wallets', BY_ADDRESS, FAR);
    first = WALLETS.find((wallet) => wallet.address === page.results[0]?.address) as Wallet;
  });
  afterAll(() => dispose?.());

  it('keeps a wallet unchanged between pages, and reads it again once its row was written, even at the same height', async () => {
    const search = new SqlWalletSearch({
      database,
      statements: new StatementBatches({ database }),
      views: new WalletViews(),
    });
    const before = await search.search('wallets', BY_ADDRESS, FAR);
    const again = await search.search('wallets', BY_ADDRESS, FAR);
    expect(again.results[0]).toBe(before.results[0]);
    expect(again.results).toEqual(before.results);

    await writeWallets(database, [moved(first, 1)], HEIGHT);
    const after = await search.search('wallets', BY_ADDRESS, FAR);
    expect(after.results[0]).toEqual(moved(first, 1));
    expect(after.results.slice(1)).toEqual(before.results.slice(1));
    expect(after.results[1]).toBe(before.results[1]);
    await writeWallets(database, [first], HEIGHT);
  });

  it('answers one snapshot when wallets are written between its reads: read again, or whole when they keep changing', async () => {
    for (const writes of [1, 2, Number.POSITIVE_INFINITY]) {
      let written = 0;
      const statements: string[] = [];
      // The real database, with a block landing right after each read of a page.
      const racing: Pick<Database, 'readStatement'> = {
        async readStatement<Row>(timeoutMs: number, text: string, values: readonly unknown[]) {
          const rows = await database.readStatement<Row>(timeoutMs, text, values);
          statements.push(text);
          if (text.includes('SELECT t.total') && written < writes) {
            written += 1;
            await writeWallets(database, [moved(first, written)], HEIGHT);
          }
          return rows;
        },
      };
      const search = new SqlWalletSearch({
        database: racing,
        statements: new StatementBatches({ database: racing }),
        views: new WalletViews(),
      });
      const page = await search.search('wallets', BY_ADDRESS, FAR);
      const pages = statements.filter((text) => text.includes('SELECT t.total'));
      if (writes === 1) {
        // The first page's wallets are read at other versions: the page is read again.
        expect(pages).toHaveLength(2);
        expect(page.results[0]).toEqual(moved(first, 1));
      } else if (writes === 2) {
        expect(pages).toHaveLength(3);
        expect(page.results[0]).toEqual(moved(first, 2));
      } else {
        // Three tries, then the page read whole in one statement (the fourth write follows it).
        expect(pages).toHaveLength(4);
        expect(pages[3]).toContain('attributes::text');
        expect(page.results[0]).toEqual(moved(first, 3));
      }
      expect(page.totalCount).toBe(60);
      expect(page.results).toHaveLength(5);
      await writeWallets(database, [first], HEIGHT);
    }
  });
});
