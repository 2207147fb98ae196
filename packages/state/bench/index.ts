/**
 * Wallet repository benchmark: build N wallets (env WALLETS, default 1,000,000), report the
 * resident memory of holding them, the update rate, and p50/p99 latency of the index
 * endpoints' typical queries, timing the built package (`npm run build` first).
 * Run: node --expose-gc --import tsx packages/state/bench/index.ts
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WalletQueryEngine, WalletRepository, type WalletQuery } from '../dist/index.js';
import { quantile } from '../../../test/support/quantile.js';

const WALLETS = Number(process.env.WALLETS ?? 1_000_000);
const DELEGATES = Number(process.env.DELEGATES ?? 2_000);
const ROUNDS = Number(process.env.ROUNDS ?? 300);

// A deterministic generator (mulberry32) so runs compare.
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const hex64 = (n: number) => n.toString(16).padStart(64, '0');
const addressOf = (n: number) => `D${n.toString(36).padStart(33, '0')}`;
const publicKeyOf = (n: number) => `02${hex64(n)}`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const rssBefore = process.memoryUsage().rss;

type Seed = Parameters<WalletRepository['load']>[0] extends Iterable<infer T> ? T : never;
function* seeds(): Generator<Seed> {
  for (let n = 0; n < WALLETS; n += 1) {
    const isDelegate = n < DELEGATES;
    const hasKey = isDelegate || random() < 0.7;
    yield {
      address: addressOf(n),
      ...(hasKey ? { publicKey: publicKeyOf(n) } : {}),
      balance: BigInt(Math.floor(random() * 1e6)) * 100_000_000n,
      nonce: hasKey ? BigInt(Math.floor(random() * 50)) : 0n,
      attributes: {
        ...(hasKey && random() < 0.15
          ? { vote: publicKeyOf(Math.floor(random() * DELEGATES)) }
          : {}),
        ...(isDelegate
          ? {
              delegate: {
                username: `delegate_${n}`,
                voteBalance: BigInt(Math.floor(random() * 1e9)) * 100_000_000n,
                forgedFees: BigInt(Math.floor(random() * 1e6)),
                forgedRewards: BigInt(Math.floor(random() * 1e3)) * 200_000_000n,
                producedBlocks: Math.floor(random() * 100_000),
                ...(n % 40 === 39 ? { resigned: true } : { rank: n + 1 }),
              },
            }
          : {}),
      },
    };
  }
}

// Boot path: one bulk load (generating the seeds is part of the timing, as reading storage is).
const repository = new WalletRepository();
let started = performance.now();
repository.load(seeds());
const buildSeconds = (performance.now() - started) / 1000;
gc?.();
const rss = process.memoryUsage().rss;
console.log(
  `loaded ${WALLETS} wallets (${DELEGATES} delegates) in ${buildSeconds.toFixed(1)} s ` +
    `(${Math.round(WALLETS / buildSeconds)} wallets/s); RSS ${mb(rss)} ` +
    `(+${mb(rss - rssBefore)} over start), heap ${mb(process.memoryUsage().heapUsed)}` +
    (gc ? '' : ' [run with --expose-gc for settled numbers]'),
);

const UPDATES = 200_000;
started = performance.now();
for (let i = 0; i < UPDATES; i += 1) {
  const address = addressOf(Math.floor(random() * WALLETS));
  repository.update(address, (w) => ({ balance: w.balance + 1n, nonce: w.nonce + 1n }));
}
const updateSeconds = (performance.now() - started) / 1000;
console.log(`balance+nonce updates: ${Math.round(UPDATES / updateSeconds)} ops/s`);

const engine = new WalletQueryEngine({ walletRepository: repository });

async function measure(
  name: string,
  kind: 'wallets' | 'delegates',
  make: (i: number) => WalletQuery,
) {
  for (let i = 0; i < 20; i += 1) engine[kind](make(i));
  // A forced full collection leaves the heap to be swept concurrently; the first allocations after
  // it sweep pages on the main thread. Waiting lets that finish, so what follows is the steady
  // state a running node serves from (where V8's own collections still fall inside the timings).
  gc?.();
  await sleep(500);
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < ROUNDS; i += 1) {
    const query = make(i);
    const t0 = performance.now();
    const page = engine[kind](query);
    times.push(performance.now() - t0);
    total = page.totalCount;
  }
  const p50 = quantile(times, 0.5);
  const p99 = quantile(times, 0.99);
  console.log(
    `${name.padEnd(64)} p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  ` +
      `${Math.round(1000 / p50)} ops/s  (total ${total})`,
  );
}

const page = (i: number) => ({ offset: (i % 5) * 100, limit: 100 });
await measure('wallets orderBy balance:desc, pages 1-5', 'wallets', (i) => ({
  orderBy: [{ field: 'balance', direction: 'desc' }],
  ...page(i),
}));
await measure('wallets balance 1e13..5e13 orderBy balance:asc', 'wallets', (i) => ({
  conditions: [{ kind: 'range', field: 'balance', from: 10n ** 13n, to: 5n * 10n ** 13n }],
  orderBy: [{ field: 'balance', direction: 'asc' }],
  ...page(i),
}));
await measure('wallets balance.from 5e13 orderBy nonce:desc', 'wallets', (i) => ({
  conditions: [{ kind: 'range', field: 'balance', from: 5n * 10n ** 13n }],
  orderBy: [{ field: 'nonce', direction: 'desc' }],
  ...page(i),
}));
await measure('wallets attributes.vote=<delegate> orderBy balance:desc', 'wallets', (i) => ({
  conditions: [{ kind: 'in', field: 'attributes.vote', values: [publicKeyOf(i % DELEGATES)] }],
  orderBy: [{ field: 'balance', direction: 'desc' }],
  limit: 100,
}));
await measure('wallets address in 20 addresses', 'wallets', (i) => ({
  conditions: [
    {
      kind: 'in',
      field: 'address',
      values: Array.from({ length: 20 }, (_, k) => addressOf((i * 7919 + k * 104_729) % WALLETS)),
    },
  ],
  orderBy: [{ field: 'balance', direction: 'desc' }],
  limit: 100,
}));
await measure('wallets attributes.delegate.username=<name>', 'wallets', (i) => ({
  conditions: [
    { kind: 'in', field: 'attributes.delegate.username', values: [`delegate_${i % DELEGATES}`] },
  ],
}));
await measure(
  'wallets nonce.from 10 AND balance.from 5e13 (two broad filters)',
  'wallets',
  (i) => ({
    conditions: [
      { kind: 'range', field: 'nonce', from: 10n },
      { kind: 'range', field: 'balance', from: 5n * 10n ** 13n },
    ],
    orderBy: [{ field: 'balance', direction: 'desc' }],
    ...page(i),
  }),
);
await measure('delegates isResigned=false orderBy rank:asc', 'delegates', (i) => ({
  conditions: [{ kind: 'in', field: 'isResigned', values: [false] }],
  orderBy: [{ field: 'rank', direction: 'asc' }],
  ...page(i),
}));
await measure('delegates orderBy votes:desc,username:asc', 'delegates', (i) => ({
  orderBy: [
    { field: 'votes', direction: 'desc' },
    { field: 'username', direction: 'asc' },
  ],
  ...page(i),
}));
await measure(
  'delegates blocks.produced 1000..50000 orderBy forged.total:desc',
  'delegates',
  (i) => ({
    conditions: [{ kind: 'range', field: 'blocks.produced', from: 1000, to: 50_000 }],
    orderBy: [{ field: 'forged.total', direction: 'desc' }],
    ...page(i),
  }),
);
await measure('delegates orderBy publicKey:asc (wallet field)', 'delegates', (i) => ({
  orderBy: [{ field: 'publicKey', direction: 'asc' }],
  ...page(i),
}));
