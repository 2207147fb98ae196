/**
 * @lni/database benchmark: the 2.7 upgrade (rows/s), query compiler latency with exact counts
 * on the upgraded table (p50/p99), and batch block saving (blocks/s, transactions/s).
 *
 * Run from the repository root: npx tsx packages/database/bench/index.ts
 * Sizes by env: UPGRADE_TRANSACTIONS (default 1,000,000), TRANSACTIONS_PER_BLOCK (50),
 * QUERY_ITERATIONS (50), SAVE_BLOCKS (2,000), SAVE_PER_BLOCK (50), SAVE_BATCH (100 blocks).
 * DB=embedded runs on PGlite in a temporary directory instead of the PostgreSQL at
 * 127.0.0.1:5432 (CORE_DB_HOST / CORE_DB_PORT / CORE_DB_USERNAME / CORE_DB_PASSWORD apply).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '@lni/kernel';
import { makeChain } from '../src/__fixtures__/chain.js';
import {
  BlockStorage,
  Database,
  databaseOptions,
  generateLegacyDatabase,
  migrateDatabase,
  TransactionQuery,
  type Criteria,
} from '../src/index.js';
import { quantile } from '../../../test/support/quantile.js';

const env = process.env;
const UPGRADE_TRANSACTIONS = Number(env.UPGRADE_TRANSACTIONS ?? 1_000_000);
const PER_BLOCK = Number(env.TRANSACTIONS_PER_BLOCK ?? 50);
const QUERY_ITERATIONS = Number(env.QUERY_ITERATIONS ?? 50);
const SAVE_BLOCKS = Number(env.SAVE_BLOCKS ?? 2_000);
const SAVE_PER_BLOCK = Number(env.SAVE_PER_BLOCK ?? 50);
const SAVE_BATCH = Number(env.SAVE_BATCH ?? 100);
const EMBEDDED = env.DB === 'embedded';

const logger = createLogger({ level: 'warn' });
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rate = (count: number, ms: number) => Math.round((count / ms) * 1000).toLocaleString('en');

/** A fresh database for one part of the run, dropped (or its directory removed) after. */
async function withDatabase(work: (database: Database) => Promise<void>): Promise<void> {
  const name = `lni_bench_${randomBytes(4).toString('hex')}`;
  const directory = await mkdtemp(join(tmpdir(), 'lni-bench-'));
  const server = {
    host: env.CORE_DB_HOST ?? '127.0.0.1',
    port: Number(env.CORE_DB_PORT ?? 5432),
    username: env.CORE_DB_USERNAME ?? 'postgres',
    ...(env.CORE_DB_PASSWORD ? { password: env.CORE_DB_PASSWORD } : {}),
  };
  const open = async (database: string) => {
    const connection = EMBEDDED ? {} : { ...server, database };
    const opened = new Database({
      logger,
      databaseOptions: databaseOptions({ connection, retry: { attempts: 1 } }),
      dataDirectory: directory,
    });
    await opened.open();
    return opened;
  };
  const admin = EMBEDDED ? undefined : await open('postgres');
  await admin?.manager.query(`CREATE DATABASE ${name}`);
  const database = await open(name);
  try {
    await work(database);
  } finally {
    await database.close();
    await admin?.manager.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.close();
    await rm(directory, { recursive: true, force: true });
  }
}

async function benchUpgradeAndQueries(database: Database): Promise<void> {
  const blocks = Math.ceil(UPGRADE_TRANSACTIONS / PER_BLOCK);
  let started = performance.now();
  await generateLegacyDatabase(database.manager, { blocks, transactionsPerBlock: PER_BLOCK });
  console.log(
    `generated a 2.7 database: ${blocks.toLocaleString('en')} blocks, ${(blocks * PER_BLOCK).toLocaleString('en')} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  started = performance.now();
  let copiedAt = started;
  const result = await migrateDatabase(database, {
    logger,
    onProgress: ({ rowsDone, rowsTotal }) => {
      if (rowsDone === rowsTotal) copiedAt = performance.now();
    },
  });
  const total = performance.now() - started;
  const rows = result.upgradedRows ?? 0;
  console.log(
    `2.7 upgrade: ${rows.toLocaleString('en')} rows; copy ${rate(rows, copiedAt - started)} rows/s; ` +
      `end to end incl. switch and indexes ${rate(rows, total)} rows/s (${(total / 1000).toFixed(1)} s); rss ${mb(process.memoryUsage().rss)}`,
  );

  const query = new TransactionQuery({ database });
  const sender = `03${(1234).toString(16).padStart(64, '0')}`;
  const someIds = (await database.manager.query(
    'SELECT id FROM transactions ORDER BY block_height DESC LIMIT 1000',
  )) as { id: string }[];
  const cases: [string, Criteria | undefined][] = [
    ['no criteria (count all)', undefined],
    ['senderPublicKey eq', { field: 'senderPublicKey', eq: sender }],
    ['recipientId eq', { field: 'recipientId', eq: `A${'17'.padStart(33, '0')}` }],
    [
      'type + typeGroup',
      {
        and: [
          { field: 'type', eq: 3 },
          { field: 'typeGroup', eq: 1 },
        ],
      },
    ],
    ['id in 1,000 values', { field: 'id', in: someIds.map((row) => row.id) }],
    ['amount range', { field: 'amount', from: 1, to: 100_000_000 }],
    ['blockHeight range', { field: 'blockHeight', from: 1000, to: 1100 }],
    ['asset.votes eq', { field: 'asset.votes', eq: `+02${(7).toString(16).padStart(64, '0')}` }],
    [
      'asset.payments.recipientId eq',
      { field: 'asset.payments.recipientId', eq: `P${'42'.padStart(33, '0')}` },
    ],
    [
      'address (sender or recipient or payment)',
      { address: `P${'42'.padStart(33, '0')}`, senderPublicKeys: [sender] },
    ],
  ];
  console.log(`\nquery compiler, page of 100 + exact totalCount, ${QUERY_ITERATIONS} runs each:`);
  for (const [label, criteria] of cases) {
    const times: number[] = [];
    let totalCount = 0;
    for (let run = 0; run < QUERY_ITERATIONS; run += 1) {
      const begin = performance.now();
      const page = await query.search({
        ...(criteria ? { criteria } : {}),
        limit: 100,
        offset: (run % 5) * 100,
      });
      times.push(performance.now() - begin);
      totalCount = page.totalCount;
    }
    console.log(
      `  ${label.padEnd(42)} p50 ${quantile(times, 0.5).toFixed(1).padStart(7)} ms  p99 ${quantile(times, 0.99).toFixed(1).padStart(7)} ms  totalCount ${totalCount.toLocaleString('en')}`,
    );
  }
}

async function benchSave(database: Database): Promise<void> {
  await migrateDatabase(database, { logger });
  const storage = new BlockStorage({ database });
  const chain = makeChain(SAVE_BLOCKS, SAVE_PER_BLOCK);
  const times: number[] = [];
  const started = performance.now();
  for (let from = 0; from < chain.length; from += SAVE_BATCH) {
    const begin = performance.now();
    await storage.saveBlocks(chain.slice(from, from + SAVE_BATCH));
    times.push(performance.now() - begin);
  }
  const elapsed = performance.now() - started;
  console.log(
    `\nbatch save: ${SAVE_BLOCKS.toLocaleString('en')} blocks x ${SAVE_PER_BLOCK} transactions in batches of ${SAVE_BATCH}: ` +
      `${rate(SAVE_BLOCKS, elapsed)} blocks/s, ${rate(SAVE_BLOCKS * SAVE_PER_BLOCK, elapsed)} transactions/s; ` +
      `batch p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms; rss ${mb(process.memoryUsage().rss)}`,
  );
}

console.log(`@lni/database bench on ${EMBEDDED ? 'embedded PGlite' : 'PostgreSQL'}`);
await withDatabase(benchUpgradeAndQueries);
await withDatabase(benchSave);
