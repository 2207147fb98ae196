/**
 * Live subscriptions benchmark: how fast the feed delivers a block message to many subscribers,
 * beside a baseline of the same run: a bare `ws` server sending the same JSON to as many bare
 * `ws` clients (the floor of any websocket fan-out on this machine). Prints deliveries/s and
 * the time a block takes to reach every subscriber, against the target that it reaches all of
 * them well within a blocktime (8 s).
 * Run: npx tsx packages/api/bench/live.ts (LIVE_BENCH_SUBSCRIBERS, LIVE_BENCH_BLOCKS)
 */
import Hapi from '@hapi/hapi';
import Nes from '@hapi/nes';
import { createLogger, EventBus } from '@lni/kernel';
import { WalletRepository } from '@lni/state';
import { performance } from 'node:perf_hooks';
import WebSocket, { WebSocketServer } from 'ws';
import { LiveFeed } from '../src/live/live-feed.js';
import { LiveMessages } from '../src/live/live-messages.js';
import { ClientAddress } from '../src/clients/client-address.js';
import { SubscriberGuard } from '../src/live/subscriber-guard.js';
import { RequestRateLimit } from '../src/server/request-rate-limit.js';
import { benchLedger } from './ledger.js';
import { quantile } from '../../../test/support/quantile.js';

const SUBSCRIBERS = Number(process.env.LIVE_BENCH_SUBSCRIBERS ?? 200);
const BLOCKS = Number(process.env.LIVE_BENCH_BLOCKS ?? 200);
const TARGET_MS = 8_000;

const logger = createLogger({ level: 'fatal' });
const key = `02${'ab'.repeat(32)}`;
const block = (height: number) => ({
  id: `${height}`.padStart(64, '0'),
  version: 0,
  height,
  previousBlock: `${height - 1}`.padStart(64, '0'),
  timestamp: height * 8,
  numberOfTransactions: 0,
  totalAmount: 0n,
  totalFee: 0n,
  reward: 200_000_000n,
  payloadLength: 0,
  payloadHash: 'e3'.repeat(32),
  generatorPublicKey: key,
  blockSignature: 'ff'.repeat(70),
});

/** Resolves once every counter reached `count`. */
function allReached(counters: number[], count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (counters.every((n) => n >= count) ? resolve() : setImmediate(check));
    check();
  });
}

async function feedRun(): Promise<{ ms: number; perBlockMs: number }> {
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  const events = new EventBus(logger);
  const ledger = benchLedger(new WalletRepository(), {
    tip: () => 'bench',
    chainContext: () => ({
      height: BLOCKS,
      epochStart: '2026-01-01T00:00:00.000Z',
      addressOf: () => 'DBenchGeneratorAddress',
      usernameOf: () => 'bench_delegate',
    }),
  });
  const requests = new RequestRateLimit({
    enabled: false,
    points: 1,
    windowSeconds: 1,
    whitelist: [],
  });
  const feed = new LiveFeed({
    events,
    messages: new LiveMessages(() => ledger),
    guard: new SubscriberGuard({
      limits: {
        enabled: true,
        maxConnectionsPerIp: SUBSCRIBERS + 1,
        maxSubscriptionsPerConnection: 10,
        maxBacklogKilobytes: 2048,
        catchUpBlocks: 10,
      },
      whitelist: requests.whitelist,
      requests,
      clientAddress: new ClientAddress([]),
      logger,
    }),
    logger,
    isAddress: () => true,
  });
  await feed.attach(server);
  await server.start();
  const counters = Array.from({ length: SUBSCRIBERS }, () => 0);
  const clients = await Promise.all(
    counters.map(async (_, i) => {
      const client = new Nes.Client(`ws://127.0.0.1:${server.info.port}`);
      await client.connect({ reconnect: false });
      await client.subscribe('/events/block.applied', () => {
        counters[i] = (counters[i] ?? 0) + 1;
      });
      return client;
    }),
  );
  const perBlock: number[] = [];
  const started = performance.now();
  for (let height = 1; height <= BLOCKS; height++) {
    const at = performance.now();
    events.emit('block.applied' as never, { block: block(height) } as never);
    await allReached(counters, height);
    perBlock.push(performance.now() - at);
  }
  const ms = performance.now() - started;
  await Promise.all(clients.map((client) => client.disconnect()));
  feed.detach();
  await server.stop();
  await ledger.close();
  return { ms, perBlockMs: quantile(perBlock, 0.99) };
}

async function baselineRun(message: string): Promise<{ ms: number; perBlockMs: number }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const { port } = wss.address() as { port: number };
  const counters = Array.from({ length: SUBSCRIBERS }, () => 0);
  const clients = await Promise.all(
    counters.map(
      (_, i) =>
        new Promise<WebSocket>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}`);
          ws.on('message', (data) => {
            JSON.parse(String(data));
            counters[i] = (counters[i] ?? 0) + 1;
          });
          ws.once('open', () => resolve(ws));
        }),
    ),
  );
  while (wss.clients.size < SUBSCRIBERS) await new Promise((resolve) => setImmediate(resolve));
  const perBlock: number[] = [];
  const started = performance.now();
  for (let height = 1; height <= BLOCKS; height++) {
    const at = performance.now();
    for (const socket of wss.clients) socket.send(message);
    await allReached(counters, height);
    perBlock.push(performance.now() - at);
  }
  const ms = performance.now() - started;
  for (const ws of clients) ws.terminate();
  await new Promise((resolve) => wss.close(resolve));
  return { ms, perBlockMs: quantile(perBlock, 0.99) };
}

const sample = JSON.stringify({
  type: 'pub',
  path: '/events/block.applied',
  message: {
    id: '0'.repeat(64),
    height: 1,
    generator: { publicKey: key },
    padding: 'x'.repeat(700),
  },
});
const baseline = await baselineRun(sample);
const feed = await feedRun();
const rate = (run: { ms: number }) => Math.round((SUBSCRIBERS * BLOCKS * 1000) / run.ms);
console.log(
  `${SUBSCRIBERS} subscribers, ${BLOCKS} blocks, one after another (each delivered to all before the next)`,
);
console.log(
  `baseline (bare ws, same JSON size): ${rate(baseline).toLocaleString()} deliveries/s, p99 ${baseline.perBlockMs.toFixed(1)} ms per block to all`,
);
console.log(
  `live feed (nes, /events/block.applied): ${rate(feed).toLocaleString()} deliveries/s (${(rate(feed) / rate(baseline)).toFixed(2)} x baseline), p99 ${feed.perBlockMs.toFixed(1)} ms per block to all (target < ${TARGET_MS} ms: ${(feed.perBlockMs / TARGET_MS).toFixed(4)} of it)`,
);
