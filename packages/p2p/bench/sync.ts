import type { BlockVerdict, IncomingBlock, PeerAddress } from '@lni/state/contracts';
import { MemoryChain } from '../src/testing/memory-chain.js';
import { startTestNode } from '../src/testing/test-node.js';

// Sync pipeline throughput on loopback: a fresh node downloads a chain of made-up blocks (a
// header and 5 transactions of 96 B each) from two peers, each request under ARK's limits. MemoryChain does no verification, so this measures transport,
// batching and the pipeline; the ledger's verification cost comes on top (state's bench).
const HEIGHT = Number(process.env.BENCH_SYNC_HEIGHT ?? 40_000);
const unlimited = { points: 1_000_000, durationSeconds: 1 };
const options = {
  rateLimits: { global: unlimited, messages: { getBlocks: unlimited, getStatus: unlimited } },
  sync: { enabled: false, maxBytesPerReply: 4 * 1024 * 1024 },
};

/** Counts the time spent in acceptBlock, the share a real ledger would spend verifying. */
class TimedChain extends MemoryChain {
  applyMs = 0;
  override async acceptBlock(block: IncomingBlock, from: PeerAddress): Promise<BlockVerdict> {
    const started = performance.now();
    try {
      return await super.acceptBlock(block, from);
    } finally {
      this.applyMs += performance.now() - started;
    }
  }
}

const network = new MemoryChain({ height: 1 });
network.transactionsPerBlock = 5;
network.extend(HEIGHT - 1);
const peers = await Promise.all(
  [0, 1].map(() => {
    const chain = new MemoryChain({ base: network, height: HEIGHT });
    chain.transactionsPerBlock = 5;
    return startTestNode({ chain, options });
  }),
);
const chain = new TimedChain({ base: network, height: 1 });
chain.received.length = 0;
const fresh = await startTestNode({
  chain,
  seeds: peers.map((peer) => ({ ip: '127.0.0.1', port: peer.port })),
  options: { ...options, sync: { enabled: false, batchSize: 400, parallelDownloads: 4 } },
});
// MemoryChain keeps what it received; drop it as it comes to measure sync, not that list.
const received = chain.received;
const trim = setInterval(() => (received.length = 0), 100);

const started = performance.now();
const outcome = await fresh.kernel.cradle.blockSync.sync();
const seconds = (performance.now() - started) / 1000;
clearInterval(trim);

const memory = process.memoryUsage();
console.log(
  `sync ${HEIGHT - 1} blocks from 2 peers: ${((HEIGHT - 1) / seconds).toFixed(0)} blocks/s ` +
    `(${seconds.toFixed(2)} s, outcome ${outcome.kind} at ${chain.height}); ` +
    `acceptBlock ${((chain.applyMs / 1000 / seconds) * 100).toFixed(1)}% of the time`,
);
console.log(
  `memory: rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`,
);
await fresh.stop();
await Promise.all(peers.map((peer) => peer.stop()));
