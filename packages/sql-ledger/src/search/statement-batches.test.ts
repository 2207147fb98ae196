import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@lni/database';
import type { DatabaseConnection } from '@lni/database/contracts';
import { WalletRepository } from '@lni/state';
import {
  openLedgerDatabase,
  postgresSkipReason,
  writeWallets,
} from '../__fixtures__/wallet-table.js';
import { randomWallets } from '../__fixtures__/random-wallets.js';
import { FIND_WALLET_SQL } from '../sql-ledger-reader.js';
import { StatementBatches } from './statement-batches.js';
import { WalletViews, type WalletTextRow } from './wallet-views.js';

const WALLETS = randomWallets(400, 40, 29);
const SECOND = 1_000;

describe.skipIf(postgresSkipReason)('statements of one text read together', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  const repository = new WalletRepository();
  repository.load(WALLETS);

  /** The database, recording the values of each statement sent (one row per statement batched). */
  const recorded = (sent: unknown[][][], held?: Promise<void>) => ({
    readStatement: (async (timeoutMs, text, values, options) => {
      sent.push(values[0] as unknown[][]);
      await held;
      return database.readStatement(timeoutMs, text, values, options);
    }) as DatabaseConnection['readStatement'],
  });

  beforeAll(async () => {
    ({ database, dispose } = await openLedgerDatabase());
    await writeWallets(database, WALLETS, 3);
  });
  afterAll(() => dispose?.());

  it('answers wallet lookups asked at once each as the in-memory ledger does, in fewer statements', async () => {
    const ids = WALLETS.flatMap((wallet) => [
      wallet.address,
      ...(wallet.publicKey === undefined ? [] : [wallet.publicKey]),
      ...(wallet.attributes.delegate === undefined ? [] : [wallet.attributes.delegate.username]),
    ]);
    const asked = [...ids, 'nobody', `03${'f'.repeat(64)}`, ids[5] as string];
    const sent: unknown[][][] = [];
    const statements = new StatementBatches({ database: recorded(sent), inFlight: 2 });
    const views = new WalletViews();
    const found = await Promise.all(
      asked.map(async (id) => {
        const rows = await statements.read<WalletTextRow>(SECOND, FIND_WALLET_SQL, [id]);
        expect(rows.length).toBeLessThanOrEqual(1);
        return rows[0] && views.viewOf(rows[0]);
      }),
    );

    expect(found).toEqual(asked.map((id) => repository.find(id)));
    expect(found.filter((wallet) => wallet === undefined)).toHaveLength(2);
    // Two go at once; the rest wait for them and go in statements of at most 64.
    expect(sent.length).toBeLessThanOrEqual(2 + Math.ceil((asked.length - 2) / 64));
    expect(Math.max(...sent.map((batch) => batch.length))).toBe(64);
    // Every lookup is run, the repeated id too: none is answered from another's rows.
    expect(sent.flat().map(([id]) => id)).toEqual(asked);
  });

  it('reads pages of one text with their own values together, each as it reads alone', async () => {
    const text =
      'SELECT address, balance::text AS balance FROM wallets ' +
      'ORDER BY balance DESC, address COLLATE "C" LIMIT $1::bigint OFFSET $2::bigint';
    const pages = [
      [5, 0],
      [3, 7],
      [0, 0],
      [4, 398],
      [5, 0],
    ];
    const alone = await Promise.all(
      pages.map((values) => database.readStatement(SECOND, text, values)),
    );
    const sent: unknown[][][] = [];
    const statements = new StatementBatches({ database: recorded(sent), inFlight: 2 });
    const together = await Promise.all(
      pages.map((values) => statements.read(SECOND, text, values)),
    );
    expect(together).toEqual(alone);
    expect(together.map((rows) => rows.length)).toEqual([5, 3, 0, 2, 5]);
    expect(sent).toHaveLength(3);
  });

  it('never adds a statement to a batch already sent: each is read after it was asked', async () => {
    const sent: unknown[][][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const statements = new StatementBatches({ database: recorded(sent, held), inFlight: 2 });
    const address = WALLETS[12]?.address as string;
    const lookup = () => statements.read<WalletTextRow>(SECOND, FIND_WALLET_SQL, [address]);
    const asked = [lookup(), lookup()];
    // Both statements are out, so the next two wait, and go together.
    asked.push(lookup(), lookup());
    expect(sent).toEqual([[[address]], [[address]]]);
    release();
    const rows = await Promise.all(asked);
    expect(rows.map(([row]) => row?.address)).toEqual([address, address, address, address]);
    expect(sent).toEqual([[[address]], [[address]], [[address], [address]]]);
  });

  it('fails every statement of a batch that fails, and reads the next ones', async () => {
    const statements = new StatementBatches({ database });
    const lookup = (id: string) => statements.read<WalletTextRow>(SECOND, FIND_WALLET_SQL, [id]);
    await database.manager.query('ALTER TABLE wallets RENAME TO wallets_away');
    try {
      const settled = await Promise.allSettled(
        WALLETS.slice(0, 5).map((wallet) => lookup(wallet.address)),
      );
      expect(settled.map((read) => read.status)).toEqual(Array(5).fill('rejected'));
      expect(String((settled[4] as PromiseRejectedResult).reason)).toMatch(/wallets/);
    } finally {
      await database.manager.query('ALTER TABLE wallets_away RENAME TO wallets');
    }
    const [row] = await lookup(WALLETS[3]?.address as string);
    expect(row?.address).toBe(WALLETS[3]?.address);
  });
});
