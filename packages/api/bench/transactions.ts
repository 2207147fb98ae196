import { asValue } from 'awilix';
/**
 * API benchmark at scale: API_BENCH_TRANSACTIONS (default 1,000,000) transfers stored in
 * PostgreSQL by the database plugin and API_BENCH_WALLETS (default 100,000) wallets (200 of them
 * delegates) in the state indexes. Under 50 connections (autocannon, API_BENCH_SECONDS each),
 * with the response cache off then on: the six request shapes of the spec's examples,
 * `address=A,B&limit=10` and the other routes the issue measured, each printed beside its
 * target; then a cursor walk to the end of a busy address's history; then the heaviest mix at
 * 100 connections for API_BENCH_MIX_SECONDS while a block is applied every slot (stored through
 * the state plugin's DatabaseBlockStore, its wallets updated), reporting missed slots, block
 * apply p99 and a relay round-trip probe through the same event loop.
 * Run: npx tsx packages/api/bench/transactions.ts (API_BENCH_TRANSACTION_JSON_BYTES=1 for pages
 * whose transactions' JSON is not kept yet).
 * The chain is `TransferChain`'s.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { addressFromPublicKey, type BlockData, type TransactionData } from '@lni/crypto';
import databasePlugin, { type SearchQuery } from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
// The state plugin's own storage adapter, from source (bench only), to store blocks as a node does.
import { DatabaseBlockStore } from '../../state/src/blocks/database-block-store.js';
import { apiPlugin } from '../src/index.js';
import { benchLedger } from './ledger.js';
import { cachedPerBlock } from '../src/routes/index.js';
import { resourceJson } from '../src/resources/json-bytes.js';
import { delegateRoutes } from '../src/routes/delegates.js';
import { TransactionJson } from '../src/routes/transaction-json.js';
import { transactionIndex, transactionRoutes } from '../src/routes/transactions.js';
import { toSearchQuery } from '../src/routes/transaction-search.js';
import { walletRoutes } from '../src/routes/wallets.js';
import {
  measureBeside,
  printAgainstTargets,
  runMix,
  walkCursor,
  warmUp,
  type Case,
} from './load.js';
import { createTestDatabase } from '../../../test/support/postgres.js';
import { quantile } from '../../../test/support/quantile.js';
import { milestone, pubKeyHash, TransferChain } from './transfer-chain.js';

const TRANSACTIONS = Number(process.env.API_BENCH_TRANSACTIONS ?? 1_000_000);
const WALLETS = Number(process.env.API_BENCH_WALLETS ?? 100_000);
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 5);
const MIX_SECONDS = Number(process.env.API_BENCH_MIX_SECONDS ?? 60);
const SLOT_MS = Number(process.env.API_BENCH_SLOT_MS ?? 8_000);
/** Measurement runs over the one chain the set-up stores (the set-up takes longest). */
const RUNS = Number(process.env.API_BENCH_RUNS ?? 1);
/**
 * The bytes of transaction JSON kept between requests (TransactionJson), the node's own bound
 * unless set. Every pass asks for the same page, so its items are kept; 1 keeps none, and
 * measures pages never served before.
 */
const TRANSACTION_JSON_BYTES = process.env.API_BENCH_TRANSACTION_JSON_BYTES;
const CONNECTIONS = 50;
const MIX_CONNECTIONS = 100;
const SENDERS = 1_000;
const DELEGATES = 200;
/** One transfer in this many is sent by sender 0: a busy address for the cursor walk. */
const BUSY_SHARE = 10;

const chain = new TransferChain({
  wallets: WALLETS,
  senders: SENDERS,
  delegates: DELEGATES,
  busyShare: BUSY_SHARE,
});
const { wallets, senderAddresses } = chain;

let height = 1;
let lastBlockId = 'none';
let cached = false;
/** A page of the address route as its client received it, served again without the database. */
let ceilingPage: unknown = {};
/** The search the address route makes for that page, run again without building any JSON. */
let ceilingSearch: SearchQuery | undefined;
const ledger = benchLedger(wallets, {
  // Undefined turns the response cache off (see the passes below).
  tip: () => (cached ? lastBlockId : undefined),
  chainContext: () => ({
    height,
    epochStart: milestone.epoch,
    // As the state plugin's reader: a known key's wallet holds its address.
    addressOf: (key) => wallets.byPublicKey(key)?.address ?? addressFromPublicKey(key, pubKeyHash),
  }),
});

// API_BENCH_DATABASE names a database an earlier run kept (API_BENCH_KEEP_DATABASE=1): its chain
// is measured again without storing it anew.
const reused = process.env.API_BENCH_DATABASE;
const database = reused
  ? {
      connection: { host: '127.0.0.1', port: 5432, username: 'postgres', database: reused },
      drop: async () => undefined,
    }
  : await createTestDatabase();
const routes: Plugin<object> = {
  name: 'bench-routes',
  dependsOn: { required: ['api', 'database'] },
  register: ({ container }) => {
    // Where the API plugin reads the chain tip, as the state plugin registers it.
    container.register({ ledger: asValue(ledger) });
    const json = resourceJson();
    container.cradle.apiRoutes.add(
      ...cachedPerBlock([
        ...transactionRoutes({
          ledger: () => ledger,
          transactions: () => container.cradle.transactionQuery,
          json: new TransactionJson(
            TRANSACTION_JSON_BYTES ? Number(TRANSACTION_JSON_BYTES) : undefined,
          ),
        }),
        ...walletRoutes(() => ledger, json.wallets),
        ...delegateRoutes(() => ledger, json),
        // What any computed answer pays however it is found: stringify the page, send it.
        { method: 'GET', path: '/api/ceiling/page', handler: () => ceilingPage },
        // What the address route pays before any JSON: its search (statement, rows, parsing).
        {
          method: 'GET',
          path: '/api/ceiling/rows',
          handler: async () => {
            if (ceilingSearch === undefined) throw new Error('no search yet');
            const page = await container.cradle.transactionQuery.search(ceilingSearch);
            return { data: { rows: page.results.length } };
          },
        },
        // What any answer read from PostgreSQL pays however little it reads: one round trip.
        {
          method: 'GET',
          path: '/api/ceiling/round-trip',
          handler: async () => {
            const rows = await container.cradle.database.readStatement(
              2_000,
              'SELECT 1 AS one',
              [],
            );
            return { data: rows };
          },
        },
      ]),
      { method: 'GET', path: '/api/constant', handler: () => ({ data: { ok: true } }) },
    );
  },
};
const kernel = await startTestKernel({
  plugins: [
    { plugin: databasePlugin as Plugin<object>, options: { connection: database.connection } },
    { plugin: routes },
    {
      plugin: apiPlugin as Plugin<object>,
      options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
    },
  ],
  printLevel: 'fatal',
});

try {
  const store = new DatabaseBlockStore({
    database: kernel.cradle.database,
    blockStorage: kernel.cradle.blockStorage,
  });
  const started = performance.now();
  const kept = reused === undefined ? undefined : await kernel.cradle.blockStorage.getLastBlock();
  if (kept !== undefined) {
    chain.resume(kept as unknown as BlockData<TransactionData>, TRANSACTIONS);
    height = kept.height;
    lastBlockId = kept.id;
  }
  while (chain.made < TRANSACTIONS) {
    const block = chain.forge(
      chain.nextTransfers(Math.min(milestone.block.maxTransactions, TRANSACTIONS - chain.made)),
    );
    await store.save(block);
    height = block.height;
    lastBlockId = block.id;
  }
  // What the running node's refresher does within a minute of such growth.
  await kernel.cradle.statisticsRefresher.check();
  console.log(
    `${TRANSACTIONS} transfers stored in ${height} blocks, ${wallets.size} wallets ` +
      `(${((performance.now() - started) / 1000).toFixed(0)} s); ` +
      `${CONNECTIONS} connections, ${SECONDS} s per route and pass`,
  );

  const uri = kernel.cradle.apiServer.server.info.uri;
  // Two senders of 1,000 transfers each (sender 500's share goes to the busy sender 0).
  const [a, b] = [senderAddresses[3], senderAddresses[501]];
  const busy = senderAddresses[0] as string;
  ceilingPage = await (await fetch(`${uri}/api/transactions?address=${a},${b}`)).json();
  ceilingSearch = await toSearchQuery(
    { conditions: [], orderBy: transactionIndex.defaultOrder, offset: 0, limit: 100, page: 1 },
    { ledger, addresses: [a as string, b as string] },
  );
  const cases: Case[] = [
    { name: 'constant', path: '/api/constant' },
    { name: 'delegates?isResigned=false (100)', path: '/api/delegates?isResigned=false' },
    { name: 'delegates?blocks.produced=42', path: '/api/delegates?blocks.produced=42' },
    {
      name: 'delegates?username=a,b&isResigned=false',
      path: '/api/delegates?username=delegate_3,delegate_7&isResigned=false',
    },
    { name: 'delegates?orderBy=rank:desc (100)', path: '/api/delegates?orderBy=rank:desc' },
    {
      name: 'wallets?attributes.delegate.username=x',
      path: '/api/wallets?attributes.delegate.username=delegate_42',
    },
    { name: 'transactions?address=A,B (100)', path: `/api/transactions?address=${a},${b}` },
    {
      name: 'the same page, no database',
      path: '/api/ceiling/page',
      yardstick: 'serializing and sending alone:',
    },
    {
      name: 'the same page, its rows alone',
      path: '/api/ceiling/rows',
      yardstick: 'its search, no JSON:',
      cachedOf: 'transactions?address=A,B (100)',
    },
    {
      name: 'one database round trip, no rows',
      path: '/api/ceiling/round-trip',
      yardstick: 'SELECT 1 and a constant answer:',
    },
    {
      name: 'transactions?address=A,B&limit=10',
      path: `/api/transactions?address=${a},${b}&limit=10`,
    },
    {
      name: 'transactions type=0 by amount (100)',
      path: '/api/transactions?type=0&orderBy=amount:desc',
    },
    {
      name: 'wallets by balance, page 50 (100)',
      path: '/api/wallets?orderBy=balance:desc&page=50',
    },
  ];
  // API_BENCH_ONLY (a regular expression) measures only the routes whose names match it.
  const only = process.env.API_BENCH_ONLY;
  if (only !== undefined) {
    const pattern = new RegExp(only);
    cases.splice(
      0,
      cases.length,
      ...cases.filter((c) => c.name === 'constant' || pattern.test(c.name)),
    );
  }
  const options = { connections: CONNECTIONS, seconds: SECONDS };
  for (let run = 1; run <= RUNS; run += 1) {
    if (RUNS > 1) console.log(`--- run ${run} of ${RUNS} over the same chain ---`);
    // Warm-up: compiled code paths, the database's buffers, a settled heap after the set-up.
    await warmUp(uri, cases, { connections: 10, seconds: 1 });
    console.log(
      'each route with the response cache off, then on (as a node runs, repeated requests at ' +
        'one chain tip), then the constant route ...',
    );
    const measured = await measureBeside(uri, cases, {
      ...options,
      cache: (on) => {
        cached = on;
      },
    });
    printAgainstTargets(cases, measured);

    const walk = await walkCursor(uri, `/api/transactions?address=${busy}&limit=100`);
    console.log(
      `cursor walk over ${busy}'s ${walk.items} transactions: ${walk.pages} pages in ` +
        `${(walk.ms / 1000).toFixed(1)} s; first 10 pages ${walk.firstMs.toFixed(1)} ms/page, ` +
        `last 10 ${walk.lastMs.toFixed(1)} ms/page (${(walk.lastMs / walk.firstMs).toFixed(2)}x, ` +
        `target ≤ 2x); offset page ${walk.pages - 1}: ${walk.offsetMs.toFixed(1)} ms; ` +
        `${walk.retries} pages retried after 503`,
    );

    if (MIX_SECONDS === 0) continue;
    // The heaviest mix: broad wallet range filters, totals over large sets, deep pages.
    const mix = [
      '/api/wallets?balance.from=1000&balance.to=900000000000&nonce.from=3',
      '/api/wallets?balance.from=1000&nonce.from=2&nonce.to=15&page=20',
      '/api/transactions?amount.from=1000',
      '/api/transactions?amount.from=10&amount.to=900000&orderBy=fee:asc',
      `/api/transactions?page=${Math.floor(TRANSACTIONS / 100) - 1}`,
      '/api/wallets?orderBy=balance:asc&page=900',
    ];
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const slots = { applied: 0, missed: 0, applyMs: [] as number[] };
    let mixing = true;
    const forging = (async () => {
      while (mixing) {
        const slotStart = performance.now();
        await new Promise((resolve) => setTimeout(resolve, SLOT_MS));
        if (!mixing) break;
        const applyStart = performance.now();
        const transactions = chain.nextTransfers(50);
        const block = chain.forge(transactions);
        await store.save(block);
        for (const tx of transactions) {
          wallets.update(tx.recipientId as string, (wallet) => ({
            balance: wallet.balance + tx.amount,
          }));
        }
        height = block.height;
        lastBlockId = block.id;
        const done = performance.now();
        slots.applyMs.push(done - applyStart);
        slots.applied += 1;
        // Missed: the block was not applied within half a slot of the slot's start (a timer
        // firing late, a busy event loop, counts as much as a slow write).
        if (done - slotStart - SLOT_MS > SLOT_MS / 2) slots.missed += 1;
      }
    })();
    const result = await runMix(uri, mix, { connections: MIX_CONNECTIONS, seconds: MIX_SECONDS });
    mixing = false;
    await forging;
    delay.disable();
    const applyP99 = quantile(slots.applyMs, 0.99);
    console.log(
      `heavy mix, ${MIX_CONNECTIONS} connections, ${MIX_SECONDS} s: ${result.rps.toFixed(0)} req/s ` +
        `(${result.status503} answered 503, ${result.errors} errors), p99 ${result.p99} ms; ` +
        `slots: ${slots.applied} applied, ${slots.missed} missed (target 0); ` +
        `block apply p99 ${applyP99.toFixed(0)} ms; relay round-trip probe p99 ` +
        `${result.probeP99.toFixed(1)} ms, max ${result.probeMax.toFixed(1)} ms, ` +
        `${result.probeFailures} failed (target 0); ` +
        `event loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, ` +
        `max ${(delay.max / 1e6).toFixed(0)} ms`,
    );
  }
} finally {
  await kernel.stop();
  await ledger.close();
  // API_BENCH_KEEP_DATABASE=1 keeps the data for EXPLAIN and friends.
  if (process.env.API_BENCH_KEEP_DATABASE === '1' || reused !== undefined) {
    console.log(`kept database ${database.connection.database}`);
  } else {
    await database.drop();
  }
}
