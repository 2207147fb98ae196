import Joi from 'joi';
import { PeerClient } from '../src/peers/peer-client.js';
import { statusResponseSchema } from '../src/protocol/messages.js';
import { MemoryChain } from '../src/testing/memory-chain.js';
import { startTestNode } from '../src/testing/test-node.js';

// Transport cost of the protocol on loopback: one nes connection, sequential requests.
// Limits are lifted so the bench measures the transport, not the rate limiter.
const unlimited = { points: 1_000_000, durationSeconds: 1 };
const node = await startTestNode({
  chain: new MemoryChain({ height: 4_000 }),
  options: {
    rateLimits: {
      global: unlimited,
      messages: { getStatus: unlimited, getBlocks: unlimited, postTransactions: unlimited },
    },
  },
});
const client = new PeerClient({
  ip: '127.0.0.1',
  port: node.port,
  timeoutMs: 10_000,
  handshake: { nethash: node.chain.network.nethash, version: '3.0.0', port: 9 },
});
await client.connect();

async function measure(name: string, count: number, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(50, count); i++) await run(); // warm-up
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await run();
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => (latencies[Math.floor((latencies.length - 1) * p)] ?? 0).toFixed(2);
  console.log(
    `${name.padEnd(34)} ${(count / seconds).toFixed(0).padStart(7)} ops/s  ` +
      `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms`,
  );
}

const blocks = Joi.array();
await measure('getStatus', 2_000, () => client.request('getStatus', {}, statusResponseSchema));
await measure('getBlocks (400 blocks, ~1.4 kB each)', 100, () =>
  client.request(
    'getBlocks',
    { fromHeight: 1 + Math.floor(Math.random() * 3_000), limit: 400 },
    blocks,
  ),
);
const transactions = Array.from({ length: 40 }, (_, i) =>
  i.toString(16).padStart(2, '0').repeat(200),
);
await measure('postTransactions (40 x 200 B)', 1_000, () =>
  client.request('postTransactions', { transactions }, Joi.object()),
);
const memory = process.memoryUsage();
console.log(
  `memory: rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`,
);
await client.disconnect();
await node.stop();
