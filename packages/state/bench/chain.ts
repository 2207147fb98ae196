/**
 * Block processing benchmark: transactions applied per second in 150-transfer blocks, including
 * bulk signature verification on the VerificationPool's worker threads, first on state with an
 * in-memory block store, then with the real PostgreSQL write without and with the wallets table
 * (skipped if it is unreachable), and the boot rebuild from a stored chain.
 * Run: npx tsx packages/state/bench/chain.ts (env BLOCKS, default 150; ROUNDS, default 5).
 */
import { performance } from 'node:perf_hooks';
import { VerificationPool, type TransactionData } from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { BlockProcessor } from '../src/blocks/block-processor.js';
import type { BlockStore, FullBlock } from '../src/blocks/block-store.js';
import {
  addressOf,
  ALICE,
  BOB,
  nextBlock,
  PUB_KEY_HASH,
  testNetwork,
  transferOf,
} from '../src/blocks/__fixtures__/test-chain.js';
import { MemoryBlockStore } from '../src/blocks/__fixtures__/memory-block-store.js';
import { openTestStore } from '../src/blocks/__fixtures__/test-database.js';
import { StateRebuilder } from '../src/boot/state-rebuilder.js';
import { WalletRepository } from '../src/wallets/wallet-repository.js';
import { quantile } from '../../../test/support/quantile.js';

const TX_PER_BLOCK = 150;

/** Forges `count` blocks of 150 transfers alternating alice and bob (signing is not timed). */
function prepareChain(network: ReturnType<typeof testNetwork>, count: number): FullBlock[] {
  const nonces = new Map([
    [ALICE, 0n],
    [BOB, 0n],
  ]);
  const blocks: FullBlock[] = [];
  let previous = network.genesis;
  for (let b = 0; b < count; b++) {
    const txs: TransactionData[] = [];
    for (let i = 0; i < TX_PER_BLOCK; i++) {
      const sender = i % 2 === 0 ? ALICE : BOB;
      const nonce = (nonces.get(sender) as bigint) + 1n;
      nonces.set(sender, nonce);
      txs.push(transferOf(sender, addressOf(`recipient ${i % 50}`), 1_000n, nonce));
    }
    previous = nextBlock(network, previous, txs);
    blocks.push(previous);
  }
  return blocks;
}

function processorOn(
  network: ReturnType<typeof testNetwork>,
  store: BlockStore | ((wallets: WalletRepository) => BlockStore),
  verificationPool: VerificationPool,
): BlockProcessor {
  const wallets = new WalletRepository();
  return new BlockProcessor({
    wallets,
    milestones: network.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    forgingSchedule: network.schedule,
    blockStore: typeof store === 'function' ? store(wallets) : store,
    logger: createLogger({ level: 'fatal' }),
    verificationPool,
  });
}

/** Prints a run's throughput and block latencies; returns its time in seconds. */
function report(label: string, latencies: readonly number[]): number {
  const seconds = latencies.reduce((sum, ms) => sum + ms, 0) / 1000;
  const txs = latencies.length * TX_PER_BLOCK;
  console.log(
    `${label}: ${Math.round(txs / seconds)} tx/s (${txs} tx in ${latencies.length} blocks, ${seconds.toFixed(2)} s); ` +
      `block p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms; ` +
      `rss ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB`,
  );
  return seconds;
}

async function measure(
  label: string,
  network: ReturnType<typeof testNetwork>,
  blocks: readonly FullBlock[],
  store: BlockStore,
  verificationPool: VerificationPool,
): Promise<void> {
  const processor = processorOn(network, store, verificationPool);
  await processor.process(network.genesis);
  const latencies: number[] = [];
  for (const block of blocks) {
    const t = performance.now();
    await processor.process(block);
    latencies.push(performance.now() - t);
  }
  report(label, latencies);
}

/** Boot: replays the stored chain onto empty wallets (no signature checks) and checks it. */
async function measureRebuild(network: ReturnType<typeof testNetwork>, store: BlockStore) {
  const wallets = new WalletRepository();
  const logger = createLogger({ level: 'fatal' });
  const blockProcessor = new BlockProcessor({
    wallets,
    milestones: network.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    forgingSchedule: network.schedule,
    blockStore: store,
    logger,
  });
  const rebuilder = new StateRebuilder({ blockStore: store, blockProcessor, wallets, logger });
  const { height, transactions, ms } = await rebuilder.rebuild();
  console.log(
    `boot rebuild from PostgreSQL: ${Math.round(transactions / (ms / 1000))} tx/s ` +
      `(${transactions} tx in ${height} blocks, ${ms} ms)`,
  );
}

/**
 * The PostgreSQL write without and with the wallets table, each on a fresh database of its own,
 * block by block in turns (which of the two goes first alternates): a checkpoint or a slow
 * fsync then falls on both alike. Runs one after the other, even alternating, measured mostly
 * the disk's moods: the same code gave 1 % and 12.7 %. ROUNDS (default 5) repeat it on fresh
 * databases; the cost is the ratio of the total times. Then the boot rebuild from a stored chain.
 */
async function measureStorage(
  network: ReturnType<typeof testNetwork>,
  blocks: readonly FullBlock[],
  verificationPool: VerificationPool,
): Promise<void> {
  const rounds = Number(process.env.ROUNDS ?? 5);
  const totals = { plain: 0, table: 0 };
  for (let round = 0; round < rounds; round += 1) {
    const opened: Awaited<ReturnType<typeof openTestStore>>[] = [];
    try {
      try {
        opened.push(await openTestStore(), await openTestStore());
      } catch (error) {
        console.log(
          `PostgreSQL unreachable, skipped the storage runs: ${(error as Error).message}`,
        );
        return;
      }
      const [plainDb, tableDb] = opened as [(typeof opened)[0], (typeof opened)[0]];
      const plain = processorOn(network, plainDb.store, verificationPool);
      const table = processorOn(
        network,
        (wallets) => tableDb.withWalletTable(wallets, network.milestones),
        verificationPool,
      );
      await plain.process(network.genesis);
      await table.process(network.genesis);
      const latencies = { plain: [] as number[], table: [] as number[] };
      for (const [index, block] of blocks.entries()) {
        const order =
          index % 2 === 0 ? (['plain', 'table'] as const) : (['table', 'plain'] as const);
        for (const kind of order) {
          const t = performance.now();
          await (kind === 'plain' ? plain : table).process(block);
          latencies[kind].push(performance.now() - t);
        }
      }
      totals.plain += report('apply + verify + PostgreSQL write', latencies.plain);
      totals.table += report('apply + verify + PostgreSQL write + wallets table', latencies.table);
      if (round === 0) await measureRebuild(network, plainDb.store);
    } finally {
      for (const db of opened) await db.close();
    }
  }
  const ratio = totals.table / totals.plain;
  console.log(
    `wallets table cost: ${((ratio - 1) * 100).toFixed(1)} % slower than without it ` +
      `(target ≤ 10 %), ratio ${ratio.toFixed(3)} of the total times of ${rounds} rounds of blocks in turns`,
  );
}

export async function runChainBench(options: { blocks?: number } = {}): Promise<void> {
  const count = options.blocks ?? Number(process.env.BLOCKS ?? 150);
  const network = testNetwork({ maxTransactions: 500 });
  console.log(`chain bench: forging ${count} blocks of ${TX_PER_BLOCK} signed transfers...`);
  const blocks = prepareChain(network, count);
  const verificationPool = new VerificationPool();
  try {
    // One warm-up pass so the workers and the JIT are ready.
    await measure(
      'warm-up (memory store)',
      network,
      blocks.slice(0, 5),
      new MemoryBlockStore(),
      verificationPool,
    );
    await measure(
      'apply + verify, memory store',
      network,
      blocks,
      new MemoryBlockStore(),
      verificationPool,
    );
    await measureStorage(network, blocks, verificationPool);
  } finally {
    await verificationPool.close();
  }
}

if (
  process.argv[1] &&
  import.meta.url.endsWith(process.argv[1].replace(/^.*packages/, 'packages'))
) {
  await runChainBench();
}
