/**
 * The heavy mix against a real forging node: a generated 51-delegate network whose chain holds
 * FORGING_BENCH_TRANSACTIONS (default 1,000,000) signed transfers to 100,000 wallets, built
 * through the state plugin in-process, then run by `kernel start --mode core` (database, state,
 * p2p, API with its response cache off, and a forger talking to its relay over P2P) while it
 * forges every 8 s. Under the heaviest mix at 100 connections for FORGING_BENCH_MIX_SECONDS
 * (60) it reports, from the node's own /metrics: slots missed (target 0), block apply p99, the
 * forger's round trip to its relay, and the event loop's lag; plus a probe of the API's root on
 * its own connection.
 * Run: npx tsx packages/api/bench/forging-node.ts
 */
import { runKernel, type KernelProcess } from '@lni/cli/testing';
import {
  addressFromPassphrase,
  addressFromPublicKey,
  forgeBlock,
  keysFromPassphrase,
  Milestones,
  transfer,
  type KeyPair,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import statePlugin from '@lni/state';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '../../../test/support/free-port.js';
import { startNode, stopNode, writeSingleNodeApp } from '../../../test/support/node-harness.js';
import { createTestDatabase, databaseEnv } from '../../../test/support/postgres.js';
import { runMix } from './load.js';
import { delegateSecrets } from '../../../test/support/delegate-secrets.js';

const TRANSACTIONS = Number(process.env.FORGING_BENCH_TRANSACTIONS ?? 1_000_000);
const WALLETS = Number(process.env.FORGING_BENCH_WALLETS ?? 100_000);
const MIX_SECONDS = Number(process.env.FORGING_BENCH_MIX_SECONDS ?? 60);
const MIX_CONNECTIONS = 100;
const DELEGATES = 51;
const BLOCKTIME = 8;
const PER_BLOCK = 150;

const blocks = Math.ceil(TRANSACTIONS / PER_BLOCK);
// Slot 0 far enough back that every block of the chain lies in the past when it is built.
const epochMs = Math.floor((Date.now() - (blocks + 60) * BLOCKTIME * 1000) / 1000) * 1000;

const root = await mkdtemp(join(tmpdir(), 'lni-forging-bench-'));
const dirs = { config: join(root, 'config'), data: join(root, 'data') };
const database = await createTestDatabase();
let node: KernelProcess | undefined;
try {
  const generated = runKernel([
    'network:generate',
    ...['--network', 'forgebench', '--delegates', String(DELEGATES)],
    ...['--blocktime', String(BLOCKTIME), '--epoch', new Date(epochMs).toISOString()],
    ...['--premine', '100000000000000000', '--config', dirs.config],
  ]);
  if ((await generated.exited()).code !== 0) throw new Error('network:generate failed');
  const secrets = await delegateSecrets(dirs.config);
  const started = performance.now();
  const height = await buildChain(secrets.map((secret) => keysFromPassphrase(secret)));
  console.log(
    `${TRANSACTIONS} signed transfers to ${WALLETS} wallets in ${height - 1} blocks, verified, ` +
      `applied and stored through the state plugin (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );

  // Every request computed: a mix of distinct queries would miss the cache just so.
  await writeSingleNodeApp(dirs.config, { cache: { enabled: false } });
  const [apiPort, p2pPort] = [await freePort(), await freePort()];
  const uri = `http://127.0.0.1:${apiPort}`;
  const booting = performance.now();
  node = startNode('core', dirs, {
    CORE_LOG_LEVEL: 'warn',
    CORE_API_PORT: String(apiPort),
    CORE_P2P_PORT: String(p2pPort),
    ...databaseEnv(database.connection),
  });
  // Up once it has forged on top of the stored chain.
  const tip = async () =>
    (
      (await (await fetch(`${uri}/api/blockchain`)).json()) as {
        data: { block: { height: number } };
      }
    ).data.block.height;
  await eventually(
    async () => ((await tip()) > height ? true : undefined),
    600_000,
    'the node forging on top of the stored chain',
  );
  console.log(
    `kernel start --mode core: rebuilt its state and forged its first block in ` +
      `${((performance.now() - booting) / 1000).toFixed(0)} s`,
  );

  const mix = [
    '/api/wallets?balance.from=1000&balance.to=900000000000&nonce.from=0',
    '/api/wallets?balance.from=1000&orderBy=balance:asc&page=20',
    '/api/transactions?amount.from=1000',
    '/api/transactions?amount.from=10&amount.to=900000&orderBy=fee:asc',
    `/api/transactions?page=${Math.floor(TRANSACTIONS / 100) - 1}`,
    '/api/wallets?orderBy=balance:asc&page=900',
  ];
  const scrape = async () => parseSeries(await (await fetch(`${uri}/metrics`)).text());
  const before = await scrape();
  const heightBefore = await tip();
  const result = await runMix(uri, mix, {
    connections: MIX_CONNECTIONS,
    seconds: MIX_SECONDS,
    probePath: '/api',
  });
  const after = await scrape();
  const forged = (await tip()) - heightBefore;
  const missed =
    total(after, 'lni_forger_missed_slots_total') - total(before, 'lni_forger_missed_slots_total');
  const apply = quantile(before, after, 'lni_block_apply_seconds', {}, 0.99);
  const relay = (route: string) =>
    quantile(before, after, 'lni_forger_relay_seconds', { route }, 0.99);
  const lag = total(after, 'nodejs_eventloop_lag_p99_seconds');
  console.log(
    `heavy mix against the forging node, ${MIX_CONNECTIONS} connections, ${MIX_SECONDS} s: ` +
      `${result.rps.toFixed(0)} req/s (${result.status503} answered 503, ${result.errors} errors); ` +
      `${forged} blocks forged, ${missed} slots missed (target 0); block apply p99 ${apply}; ` +
      `forger → relay p99: getCurrentRound ${relay('getCurrentRound')}, ` +
      `getUnconfirmedTransactions ${relay('getUnconfirmedTransactions')}, postBlock ${relay('postBlock')}; ` +
      `event loop lag p99 ${(lag * 1000).toFixed(0)} ms; API root probe p99 ` +
      `${result.probeP99.toFixed(1)} ms, max ${result.probeMax.toFixed(1)} ms, ${result.probeFailures} failed`,
  );
} finally {
  await stopNode(node);
  await database.drop();
  await rm(root, { recursive: true, force: true });
}

/**
 * The chain, block after block in consecutive slots, each forged by its slot's delegate and
 * processed as a received block is (signatures verified, applied, stored): the delegates pay
 * 150 transfers per block to WALLETS addresses in turn.
 */
async function buildChain(delegates: readonly KeyPair[]): Promise<number> {
  const kernel = await startTestKernel({
    plugins: [
      { plugin: databasePlugin as Plugin<object>, options: { connection: database.connection } },
      { plugin: statePlugin as Plugin<object> },
    ],
    paths: { config: dirs.config, data: dirs.data, log: join(root, 'log') },
    printLevel: 'fatal',
  });
  try {
    const cradle = kernel.cradle as unknown as {
      blockProcessor: {
        lastBlock: { height: number; timestamp: number } | undefined;
        process(block: unknown): Promise<void>;
      };
      roundKeeper: {
        slotOf(timestamp: number, height: number): number;
        slotTime(slot: number, height: number): number;
        forgerAt(height: number, timestamp: number): string;
      };
      milestones: Milestones;
      walletRepository: { get(address: string): { nonce: bigint } | undefined };
    };
    const { blockProcessor, roundKeeper, milestones } = cradle;
    const pubKeyHash = 23;
    const byKey = new Map(delegates.map((keys) => [keys.publicKey.toString('hex'), keys]));
    const nonces = delegates.map(
      (keys) =>
        cradle.walletRepository.get(addressFromPublicKey(keys.publicKey, pubKeyHash))?.nonce ?? 0n,
    );
    const recipients = Array.from({ length: WALLETS }, (_, n) =>
      addressFromPassphrase(`forging bench recipient ${n}`, pubKeyHash),
    );
    let made = 0;
    while (made < TRANSACTIONS) {
      const last = blockProcessor.lastBlock as { height: number; timestamp: number };
      const height = last.height + 1;
      const transactions: TransactionData[] = [];
      for (let i = 0; i < PER_BLOCK && made < TRANSACTIONS; i += 1, made += 1) {
        const sender = made % DELEGATES;
        nonces[sender] = (nonces[sender] as bigint) + 1n;
        transactions.push(
          transfer({ network: pubKeyHash, milestone: milestones.at(height) })
            .recipientId(recipients[made % WALLETS] as string)
            .amount(1 + ((made * 7919) % 1_000_000))
            .nonce(nonces[sender] as bigint)
            .sign(delegates[sender] as KeyPair)
            .build(),
        );
      }
      const at = roundKeeper.slotTime(roundKeeper.slotOf(last.timestamp, height) + 1, height);
      const keys = byKey.get(roundKeeper.forgerAt(height, at)) as KeyPair;
      await blockProcessor.process(
        forgeBlock({ transactions, previousBlock: last as never, timestamp: at, keys, milestones }),
      );
    }
    return (blockProcessor.lastBlock as { height: number }).height;
  } finally {
    await kernel.stop();
  }
}

/** Every sample of Prometheus' text format: name, labels (as written) and value. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

function parseSeries(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) {
      labels[key as string] = value as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

function having(labels: Readonly<Record<string, string>>): (sample: Sample) => boolean {
  return (sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value);
}

/** The sum of a metric's samples (over all its label sets). */
function total(samples: readonly Sample[], name: string): number {
  return samples.filter((s) => s.name === name).reduce((sum, s) => sum + s.value, 0);
}

/** The bucket bound under which `q` of the observations made between the scrapes fall. */
function quantile(
  before: readonly Sample[],
  after: readonly Sample[],
  name: string,
  labels: Readonly<Record<string, string>>,
  q: number,
): string {
  const buckets = (samples: readonly Sample[]) => {
    const counts = new Map<number, number>();
    for (const sample of samples
      .filter((s) => s.name === `${name}_bucket`)
      .filter(having(labels))) {
      const bound = sample.labels.le === '+Inf' ? Infinity : Number(sample.labels.le);
      counts.set(bound, (counts.get(bound) ?? 0) + sample.value);
    }
    return counts;
  };
  const [then, now] = [buckets(before), buckets(after)];
  const count = (now.get(Infinity) ?? 0) - (then.get(Infinity) ?? 0);
  if (count === 0) return 'none observed';
  for (const bound of [...now.keys()].sort((a, b) => a - b)) {
    if ((now.get(bound) ?? 0) - (then.get(bound) ?? 0) >= q * count) {
      return `${bound === Infinity ? '> 10 s' : `≤ ${bound * 1000} ms`} (${count} observed)`;
    }
  }
  return 'n/a';
}
