import { MemoryChain } from '../src/testing/memory-chain.js';
import { connectTestClient } from '../src/testing/test-client.js';
import { startTestNode } from '../src/testing/test-node.js';
import { quantile } from '../../../test/support/quantile.js';

// Transport cost of ARK's dialect on loopback (binary frames, protobuf): one connection,
// sequential requests. Limits are lifted so the bench measures the transport, not a limiter.
const unlimited = { points: 1_000_000, durationSeconds: 1 };
const chain = new MemoryChain({ height: 4_000 });
chain.transactionsPerBlock = 5;
const node = await startTestNode({
  chain,
  options: {
    rateLimits: {
      global: unlimited,
      messages: { getStatus: unlimited, getBlocks: unlimited, postTransactions: unlimited },
      exempt: [],
    },
  },
});
const client = await connectTestClient(node.port, { version: '3.9.1' }, { timeoutMs: 10_000 });

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
  const at = (q: number) => quantile(latencies, q).toFixed(2);
  console.log(
    `${name.padEnd(34)} ${(count / seconds).toFixed(0).padStart(7)} ops/s  ` +
      `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms`,
  );
}

await measure('getStatus', 2_000, () => client.status());
await measure('getBlocks (400 headers + 5 tx of 96 B)', 100, () =>
  client.blocks(1 + Math.floor(Math.random() * 3_000), 400),
);
const transactions = Array.from({ length: 40 }, (_, i) => Buffer.alloc(200, i));
await measure('postTransactions (40 x 200 B)', 1_000, () =>
  client.postTransactions(transactions, 0),
);
const memory = process.memoryUsage();
console.log(
  `memory: rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`,
);
client.close();
await node.stop();
