/**
 * Pool admission benchmark: transfers accepted per second through `POST /api/transactions` on a
 * node of database + state + api (the testnet preset, its 51 delegates as senders), requests of
 * 40 signed transfers from CLIENTS concurrent clients, each owning its own senders so that nonce
 * sequences arrive in order. Signing happens before the clock starts. PostgreSQL at 127.0.0.1
 * by default, `DB=embedded` for PGlite. Run: npx tsx packages/state/bench/pool.ts
 * (env POOL_TRANSFERS, default 5,100; CLIENTS, default 4).
 */
import apiPlugin from '@lni/api';
import {
  addressFromPassphrase,
  keysFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionToJson,
  transfer,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestDatabase } from '../../../test/support/postgres.js';
import { statePlugin } from '../src/plugin.js';
import { quantile } from '../../../test/support/quantile.js';

const TRANSFERS = Number(process.env.POOL_TRANSFERS ?? 5_100);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const PER_REQUEST = 40;
const embedded = process.env.DB === 'embedded';

const testnet = join(import.meta.dirname, '../../cli/networks/testnet');
const network = loadNetworkConfig(join(testnet, 'crypto'));
const { pubKeyHash } = network.network;
const milestone = new Milestones(network.milestones).at(2);
const { secrets } = JSON.parse(await readFile(join(testnet, 'delegates.json'), 'utf8')) as {
  secrets: string[];
};
const recipient = addressFromPassphrase('pool bench recipient', pubKeyHash);

/**
 * Each client's requests, in the order it sends them: its senders' nonces ascending from the
 * nonce each has after genesis.
 */
function prepareRequests(nonceOf: (address: string) => bigint): string[][] {
  const started = performance.now();
  const perClient: unknown[][] = Array.from({ length: CLIENTS }, () => []);
  const nonces = secrets.map((secret) => nonceOf(addressFromPassphrase(secret, pubKeyHash)));
  const keys = secrets.map((secret) => keysFromPassphrase(secret));
  for (let n = 0; n < TRANSFERS; n++) {
    const sender = n % secrets.length;
    nonces[sender] = (nonces[sender] as bigint) + 1n;
    const tx = transfer({ network: pubKeyHash, milestone })
      .recipientId(recipient)
      .amount(1 + n)
      .nonce(nonces[sender] as bigint)
      .sign(keys[sender] as ReturnType<typeof keysFromPassphrase>)
      .build();
    (perClient[sender % CLIENTS] as unknown[]).push(transactionToJson(tx));
  }
  console.log(
    `${TRANSFERS} transfers signed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return perClient.map((list) => {
    const bodies: string[] = [];
    for (let i = 0; i < list.length; i += PER_REQUEST) {
      bodies.push(JSON.stringify({ transactions: list.slice(i, i + PER_REQUEST) }));
    }
    return bodies;
  });
}

const root = await mkdtemp(join(tmpdir(), 'lni-pool-bench-'));
await cp(join(testnet, 'crypto'), join(root, 'config', 'crypto'), { recursive: true });
const database = embedded ? undefined : await createTestDatabase();
const kernel = await startTestKernel({
  plugins: [
    {
      plugin: databasePlugin as Plugin<object>,
      options: database ? { connection: database.connection } : {},
    },
    {
      plugin: statePlugin as Plugin<object>,
      options: { pool: { maxTransactions: TRANSFERS, maxPerSender: TRANSFERS } },
    },
    {
      plugin: apiPlugin as Plugin<object>,
      options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
    },
  ],
  paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
  printLevel: 'fatal',
});

const ms = (value: number) => value.toFixed(1);

// The pool's durable write, timed where the pool calls it (the storage service, when there is one).
const writes: number[] = [];
const storage = (kernel.cradle as { poolStorage?: { save: (...args: never[]) => Promise<void> } })
  .poolStorage;
if (storage) {
  const save = storage.save.bind(storage);
  storage.save = async (...args) => {
    const started = performance.now();
    await save(...args);
    writes.push(performance.now() - started);
  };
}

try {
  const requests = prepareRequests(
    (address) => kernel.cradle.walletRepository.get(address)?.nonce ?? 0n,
  );
  const url = `${kernel.cradle.apiServer.server.info.uri}/api/transactions`;
  const latencies: number[] = [];
  let accepted = 0;
  const started = performance.now();
  await Promise.all(
    requests.map(async (bodies) => {
      for (const body of bodies) {
        const sent = performance.now();
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const answer = (await response.json()) as { data: { accept: string[] } };
        latencies.push(performance.now() - sent);
        accepted += answer.data.accept.length;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${embedded ? 'embedded PGlite' : 'PostgreSQL'}: ${accepted} of ${TRANSFERS} accepted in ` +
      `${seconds.toFixed(1)} s = ${Math.round(accepted / seconds)} tx/s; ` +
      `${latencies.length} requests of ${PER_REQUEST}, ${CLIENTS} clients, ` +
      `p50 ${ms(quantile(latencies, 0.5))} ms, p99 ${ms(quantile(latencies, 0.99))} ms` +
      (writes.length > 0
        ? `; pool writes p50 ${ms(quantile(writes, 0.5))} ms, p99 ${ms(quantile(writes, 0.99))} ms`
        : ''),
  );
} finally {
  await kernel.stop();
  await database?.drop();
  await rm(root, { recursive: true, force: true });
}
