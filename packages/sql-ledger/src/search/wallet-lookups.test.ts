import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@lni/database';
import { WalletRepository } from '@lni/state';
import {
  openLedgerDatabase,
  postgresSkipReason,
  writeWallets,
} from '../__fixtures__/wallet-table.js';
import { randomWallets } from '../__fixtures__/random-wallets.js';
import { WalletLookups } from './wallet-lookups.js';
import { WalletViews } from './wallet-views.js';

const WALLETS = randomWallets(400, 40, 29);

describe.skipIf(postgresSkipReason)('wallet lookups read together', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  /** Every statement the lookups sent, by its ids. */
  const statements: unknown[][] = [];
  let lookups: WalletLookups;
  const repository = new WalletRepository();
  repository.load(WALLETS);

  beforeAll(async () => {
    ({ database, dispose } = await openLedgerDatabase());
    await writeWallets(database, WALLETS, 3);
    lookups = new WalletLookups({
      database: {
        readStatement: (timeoutMs, text, values, options) => {
          statements.push(values[0] as unknown[]);
          return database.readStatement(timeoutMs, text, values, options);
        },
      },
      timeoutMs: 5_000,
    });
  });
  afterAll(() => dispose?.());

  it('answers lookups asked at once as the in-memory ledger does, in fewer statements', async () => {
    const ids = WALLETS.flatMap((wallet) => [
      wallet.address,
      ...(wallet.publicKey === undefined ? [] : [wallet.publicKey]),
      ...(wallet.attributes.delegate === undefined ? [] : [wallet.attributes.delegate.username]),
    ]);
    // The first id again: its first lookup went at once, so the second is read apart; the
    // sixth again: it waits with the first, so the two share its row.
    const asked = [...ids, 'nobody', `03${'f'.repeat(64)}`, ids[0] as string, ids[5] as string];
    statements.length = 0;
    const views = new WalletViews();
    const found = await Promise.all(
      asked.map(async (id) => {
        const row = await lookups.find(id);
        return row && views.viewOf(row);
      }),
    );

    expect(found).toEqual(asked.map((id) => repository.find(id)));
    expect(found.filter((wallet) => wallet === undefined)).toHaveLength(2);
    expect(found.at(-1)).toBe(found[5]);
    // Two go at once; the rest wait for them and go in statements of at most 256 ids.
    expect(statements.length).toBeLessThanOrEqual(2 + Math.ceil((asked.length - 2) / 256));
    expect(statements.flat()).toHaveLength(new Set(asked).size + 1);
  });

  it('never joins a statement already sent: a lookup reads after it was asked', async () => {
    const sent: unknown[][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const gated = new WalletLookups({
      database: {
        readStatement: async (timeoutMs, text, values, options) => {
          sent.push(values[0] as unknown[]);
          await held;
          return database.readStatement(timeoutMs, text, values, options);
        },
      },
      timeoutMs: 5_000,
    });
    const address = WALLETS[12]?.address as string;
    const asked = [gated.find(address), gated.find(address)];
    // Both statements are out, so the next two wait, and go together.
    asked.push(gated.find(address), gated.find(address));
    expect(sent).toEqual([[address], [address]]);
    release();
    const rows = await Promise.all(asked);
    expect(rows.map((row) => row?.address)).toEqual([address, address, address, address]);
    expect(sent).toEqual([[address], [address], [address]]);
  });

  it('fails every lookup of a statement that fails, and reads the next ones', async () => {
    const failing = new WalletLookups({ database, timeoutMs: 5_000 });
    await database.manager.query('ALTER TABLE wallets RENAME TO wallets_away');
    try {
      const settled = await Promise.allSettled(
        WALLETS.slice(0, 5).map((wallet) => failing.find(wallet.address)),
      );
      expect(settled.map((lookup) => lookup.status)).toEqual(Array(5).fill('rejected'));
      expect(String((settled[4] as PromiseRejectedResult).reason)).toMatch(/wallets/);
    } finally {
      await database.manager.query('ALTER TABLE wallets_away RENAME TO wallets');
    }
    expect((await failing.find(WALLETS[3]?.address as string))?.address).toBe(WALLETS[3]?.address);
  });
});
