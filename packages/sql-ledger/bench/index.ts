/**
 * @lni/sql-ledger benchmark: the queries of the wallet and delegate routes answered by the SQL
 * ledger (an api node, uncached) beside the in-memory ledger (WalletQueryEngine over a
 * WalletRepository, a core node's, uncached) holding the same wallets, measured in this run.
 * Target (issue 29): SQL ≥ 50 % of the in-memory figure. Each case is measured twice: the
 * ledger's answer alone, and with what the route does with it besides (the page's wallets or
 * delegates as @lni/api shapes them, as JSON), which costs both ledgers the same.
 *
 * Run from the repository root: npx tsx packages/sql-ledger/bench/index.ts
 * Sizes by env: WALLETS (default 100,000), DELEGATES (400), SECONDS per case (1), CONCURRENCY
 * of the SQL ledger's requests in flight (8, as an API under load has them).
 * Needs the PostgreSQL at 127.0.0.1:5432 (a database is made and dropped).
 */
import { performance } from 'node:perf_hooks';
import { delegateResource, walletResource } from '@lni/api';
import { Milestones } from '@lni/crypto';
import { WalletQueryEngine, WalletRepository, type Wallet } from '@lni/state';
import type { WalletSearch, WalletSearchPage, WalletView } from '@lni/state/contracts';
import { openLedgerDatabase, writeHead, writeWallets } from '../src/__fixtures__/wallet-table.js';
import { network } from '../src/__fixtures__/stored-chain.js';
import { HeadCache } from '../src/head/ledger-head.js';
import { SqlWalletSearch } from '../src/search/sql-wallet-search.js';
import { StatementBatches } from '../src/search/statement-batches.js';
import { SqlLedgerReader } from '../src/sql-ledger-reader.js';
import { WalletViews } from '../src/search/wallet-views.js';

const env = process.env;
const WALLETS = Number(env.WALLETS ?? 100_000);
const DELEGATES = Number(env.DELEGATES ?? 400);
const SECONDS = Number(env.SECONDS ?? 1);
const CONCURRENCY = Number(env.CONCURRENCY ?? 8);
const TARGET = 0.5;

const key = (n: number) => `03${n.toString(16).padStart(64, '0')}`;
const address = (n: number) => `D${n.toString(36).padStart(8, '0')}`;

/** Wallets as a chain leaves them: delegates, a third of wallets voting, balances with ties. */
function wallets(): Wallet[] {
  return Array.from({ length: WALLETS }, (_, n): Wallet => {
    const isDelegate = n < DELEGATES;
    const attributes = {
      ...(n % 3 === 0 && { vote: key(n % 51) }),
      ...(isDelegate && {
        delegate: {
          username: `delegate_${n}`,
          voteBalance: BigInt((n * 7_919) % 1_000_000) * 100_000_000n,
          forgedFees: BigInt(n),
          forgedRewards: BigInt(n) * 200_000_000n,
          producedBlocks: n * 3,
          rank: n + 1,
          ...(n % 50 === 49 && { resigned: true }),
        },
      }),
    };
    return {
      address: address(n),
      ...((isDelegate || n % 2 === 0) && { publicKey: key(n) }),
      balance: BigInt((n * 104_729) % 5_000_000) * 1_000n,
      nonce: BigInt(n % 5),
      attributes,
    } as Wallet;
  });
}

const page = (search: Partial<WalletSearch>): WalletSearch => ({
  conditions: [],
  orderBy: [],
  offset: 0,
  limit: 100,
  ...search,
});

type Case = {
  readonly name: string;
  readonly memory: () => unknown;
  readonly sql: () => Promise<unknown>;
  /** The route's own work on the answer: its resources as JSON. */
  readonly shape: (answer: unknown) => string;
};

const EPOCH = '2026-11-01T00:00:00.000Z';
const asJson = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
const walletsJson = (answer: unknown) =>
  asJson((answer as WalletSearchPage).results.map(walletResource));
const delegatesJson = (answer: unknown) =>
  asJson(
    (answer as WalletSearchPage).results.map((wallet) =>
      delegateResource(wallet, { supply: 10_000_000_000_000_000n, epochStart: EPOCH }),
    ),
  );
const walletJson = (answer: unknown) => asJson(walletResource(answer as WalletView));

/** Operations per second of `run` for SECONDS, `inFlight` at a time. */
async function opsPerSecond(run: () => unknown, inFlight: number): Promise<number> {
  let done = 0;
  const end = performance.now() + SECONDS * 1_000;
  const worker = async () => {
    while (performance.now() < end) {
      await run();
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (done / (performance.now() - started)) * 1_000;
}

async function main(): Promise<void> {
  const all = wallets();
  const repository = new WalletRepository();
  repository.load(all);
  // Uncached and exact, as the SQL ledger's totals are.
  const engine = new WalletQueryEngine({ walletRepository: repository, countBudget: Infinity });

  const { database, dispose } = await openLedgerDatabase();
  try {
    const started = performance.now();
    await writeWallets(database, all, 1);
    await writeHead(database, { height: 1, blockId: '1', supply: 0n, walletCount: WALLETS });
    await database.manager.query('VACUUM ANALYZE wallets');
    console.log(
      `${WALLETS.toLocaleString('en')} wallets (${DELEGATES} delegates) written in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s; ${SECONDS} s per case; ` +
        `SQL with ${CONCURRENCY} requests in flight (and 1, for latency)`,
    );
    const views = new WalletViews();
    const statements = new StatementBatches({ database });
    const ledger = new SqlLedgerReader({
      walletSearch: new SqlWalletSearch({ database, statements, views }),
      statements,
      lookupTimeoutMs: 5_000,
      views,
      headCache: new HeadCache(),
      milestones: new Milestones(network.milestones),
      pubKeyHash: network.network.pubKeyHash,
    });
    const deadline = () => Date.now() + 5_000;
    const top = engine.wallets(page({ orderBy: [{ field: 'balance', direction: 'desc' }] }));
    const both = (scope: 'wallets' | 'delegates', search: WalletSearch): Omit<Case, 'name'> => ({
      shape: scope === 'wallets' ? walletsJson : delegatesJson,
      memory: () => (scope === 'wallets' ? engine.wallets(search) : engine.delegates(search)),
      sql: () =>
        scope === 'wallets'
          ? ledger.wallets(search, deadline())
          : ledger.delegates(search, deadline()),
    });
    const cases: Case[] = [
      {
        name: 'wallets/top (balance desc, 100)',
        ...both('wallets', page({ orderBy: [{ field: 'balance', direction: 'desc' }] })),
      },
      {
        name: 'wallets?page=50 (offset 4,900)',
        ...both(
          'wallets',
          page({ orderBy: [{ field: 'balance', direction: 'desc' }], offset: 4_900 }),
        ),
      },
      {
        name: 'wallets, page after a cursor',
        ...both(
          'wallets',
          page({ orderBy: [{ field: 'balance', direction: 'desc' }], after: top.next }),
        ),
      },
      {
        name: 'wallets?balance=from..to',
        ...both(
          'wallets',
          page({
            conditions: [{ kind: 'range', field: 'balance', from: 1_000_000n, to: 2_000_000_000n }],
            orderBy: [{ field: 'balance', direction: 'desc' }],
          }),
        ),
      },
      {
        name: 'delegates/{id}/voters',
        ...both(
          'wallets',
          page({
            conditions: [{ kind: 'in', field: 'attributes.vote', values: [key(9)] }],
            orderBy: [{ field: 'balance', direction: 'desc' }],
          }),
        ),
      },
      {
        name: 'delegates (rank asc, 100)',
        ...both('delegates', page({ orderBy: [{ field: 'rank', direction: 'asc' }] })),
      },
      {
        name: 'delegates?isResigned=false',
        ...both(
          'delegates',
          page({
            conditions: [{ kind: 'in', field: 'isResigned', values: [false] }],
            orderBy: [{ field: 'rank', direction: 'asc' }],
          }),
        ),
      },
      {
        name: 'delegates?orderBy=votes:desc',
        ...both('delegates', page({ orderBy: [{ field: 'votes', direction: 'desc' }] })),
      },
      {
        name: 'wallets/{id} by address',
        memory: () => repository.find(address(77_777)),
        shape: walletJson,
        sql: () => ledger.findWallet(address(77_777)),
      },
      {
        name: 'delegates/{id} by username',
        memory: () => repository.find('delegate_42'),
        shape: walletJson,
        sql: () => ledger.findWallet('delegate_42'),
      },
    ];
    const header = [
      'case',
      'memory op/s',
      `SQL op/s (${CONCURRENCY})`,
      'SQL ms (1)',
      'ratio',
      'memory+JSON op/s',
      `SQL+JSON op/s (${CONCURRENCY})`,
      'ratio',
      `target ≥ ${TARGET}`,
    ];
    const rows: string[][] = [];
    const format = (rate: number) => Math.round(rate).toLocaleString('en');
    for (const { name, memory, sql, shape } of cases) {
      const memoryRate = await opsPerSecond(memory, 1);
      const sqlRate = await opsPerSecond(sql, CONCURRENCY);
      const sqlSerial = await opsPerSecond(sql, 1);
      const memoryRoute = await opsPerSecond(() => shape(memory()), 1);
      const sqlRoute = await opsPerSecond(async () => shape(await sql()), CONCURRENCY);
      const routeRatio = sqlRoute / memoryRoute;
      rows.push([
        name,
        format(memoryRate),
        format(sqlRate),
        (1_000 / sqlSerial).toFixed(2),
        (sqlRate / memoryRate).toFixed(2),
        format(memoryRoute),
        format(sqlRoute),
        routeRatio.toFixed(2),
        routeRatio >= TARGET ? 'met' : 'MISSED',
      ]);
    }
    const widths = header.map((h, i) =>
      Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)),
    );
    for (const row of [header, ...rows]) {
      console.log(
        row
          .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
          .join('  '),
      );
    }
  } finally {
    await dispose();
  }
}

await main();
