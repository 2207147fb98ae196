import { verifyBlock } from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import type { BlockVerdict, Chain, IncomingBlock, PeerAddress } from '@lni/state/contracts';
import type { MemoryChain } from '../src/testing/memory-chain.js';
import { startTestNode } from '../src/testing/test-node.js';
// The real ledger, from the state package's sources and test fixtures (p2p's src knows state
// only through @lni/state/contracts). Bench only; never imported by p2p's src.
import type { FullBlock } from '../../state/src/blocks/block-store.js';
import {
  ALICE,
  BOB,
  addressOf,
  nextBlock,
  testNetwork,
  testProcessor,
  transferOf,
} from '../../state/src/blocks/__fixtures__/test-chain.js';
import { openTestStore } from '../../state/src/blocks/__fixtures__/test-database.js';
import { LedgerChain } from '../../state/src/adapters/ledger-chain.js';
import { RoundKeeper } from '../../state/src/rounds/round-keeper.js';
import { poolOptions } from '../../state/src/pool/pool-options.js';
import { TransactionPool } from '../../state/src/pool/transaction-pool.js';

// Sync throughput of a fresh node whose ledger (BlockProcessor on its own PostgreSQL database)
// downloads a generated chain in ARK's P2P dialect from peers serving it from another database,
// each peer asked no faster than ARK allows (getBlocks once per 2 s).
// BENCH_LEDGER_TX (total transfers, default 1,000,000: about 6 minutes of generation and 3 of
// sync), BENCH_LEDGER_TX_PER_BLOCK (default 500), BENCH_LEDGER_PEERS (serving peers, default 3).
const TOTAL_TX = Number(process.env.BENCH_LEDGER_TX ?? 1_000_000);
const PER_BLOCK = Number(process.env.BENCH_LEDGER_TX_PER_BLOCK ?? 500);
const PEERS = Number(process.env.BENCH_LEDGER_PEERS ?? 3);
const TARGET_TX_PER_SECOND = 5_000;
const logger = createLogger({ level: 'fatal' });
const network = testNetwork({ maxTransactions: PER_BLOCK });
const unlimited = { points: 1_000_000, durationSeconds: 1 };
const options = {
  rateLimits: { global: unlimited, messages: { getBlocks: unlimited, getStatus: unlimited } },
};

function ledger(db: Awaited<ReturnType<typeof openTestStore>>) {
  // The store writes the wallets table with each block, as a node's does.
  const { wallets, processor } = testProcessor(network, (repository) =>
    db.withWalletTable(repository, network.milestones),
  );
  const port = new LedgerChain({
    blockProcessor: processor,
    transactionPool: new TransactionPool({
      wallets,
      milestones: network.milestones,
      network: { pubKeyHash: 23 },
      tip: () => processor.lastBlock as FullBlock,
      poolOptions: poolOptions({ staticFees: false }),
      logger,
    }),
    blockStore: db.store,
    roundKeeper: new RoundKeeper({ wallets, milestones: network.milestones }),
    milestones: network.milestones,
    network: network.generated.network,
    logger,
  });
  return { processor, port };
}

/** Time in the ledger's acceptBlock: deserialize, verify (signatures, rules), apply, store. */
class TimedPort {
  ledgerMs = 0;
  /** Ports of the peers that blocks came from. */
  readonly sources = new Set<number | undefined>();
  constructor(readonly inner: LedgerChain) {}
  asChain(): Chain {
    const port = this.inner;
    return new Proxy(port, {
      get: (target, key) => {
        if (key !== 'acceptBlock') {
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async (block: IncomingBlock, from: PeerAddress): Promise<BlockVerdict> => {
          const started = performance.now();
          this.sources.add(from.port);
          try {
            return await target.acceptBlock(block, from);
          } finally {
            this.ledgerMs += performance.now() - started;
          }
        };
      },
    });
  }
}

const [servingDb, freshDb] = [await openTestStore(), await openTestStore()];
try {
  const serving = ledger(servingDb);
  await serving.processor.process(network.genesis);
  const recipients = Array.from({ length: 50 }, (_, i) => addressOf(`bench recipient ${i}`));
  let previous = network.genesis;
  const nonces = { [ALICE]: 0n, [BOB]: 0n };
  const generateStarted = performance.now();
  for (let made = 0; made < TOTAL_TX;) {
    const count = Math.min(PER_BLOCK, TOTAL_TX - made);
    const txs = Array.from({ length: count }, (_, i) => {
      const sender = i % 2 === 0 ? ALICE : BOB;
      nonces[sender] += 1n;
      // A small fee: the two genesis wallets pay for a million transfers.
      return transferOf(
        sender,
        recipients[(made + i) % recipients.length]!,
        1n,
        nonces[sender],
        1_000n,
      );
    });
    const block = nextBlock(network, previous, txs);
    await serving.processor.process(block);
    previous = block;
    made += count;
  }
  const height = previous.height;
  console.log(
    `generated ${TOTAL_TX} transfers in ${height - 1} blocks ` +
      `(${((performance.now() - generateStarted) / 1000).toFixed(1)} s, signed and applied by the serving node)`,
  );

  // Several nodes serve the one ledger, as several peers of a network hold the same chain.
  const peers = await Promise.all(
    Array.from({ length: PEERS }, () =>
      startTestNode({ chain: serving.port as unknown as MemoryChain, options }),
    ),
  );
  const fresh = ledger(freshDb);
  await fresh.processor.process(network.genesis);
  const timed = new TimedPort(fresh.port);
  const node = await startTestNode({
    chain: timed.asChain() as unknown as MemoryChain,
    seeds: peers.map((peer) => ({ ip: '127.0.0.1', port: peer.port })),
    options: { ...options, sync: { enabled: false, batchSize: 400, parallelDownloads: 3 } },
  });
  const started = performance.now();
  const outcome = await node.kernel.cradle.blockSync.sync();
  const seconds = (performance.now() - started) / 1000;
  const reached = fresh.processor.lastBlock?.height;
  const memory = process.memoryUsage();
  const rate = TOTAL_TX / seconds;
  console.log(
    `sync ${height - 1} blocks / ${TOTAL_TX} tx from ${timed.sources.size} of ${PEERS} peers: ` +
      `${((height - 1) / seconds).toFixed(1)} blocks/s, ${rate.toFixed(0)} tx/s ` +
      `(target >= ${TARGET_TX_PER_SECOND}: ${rate >= TARGET_TX_PER_SECOND ? 'met' : 'missed'}) ` +
      `(${seconds.toFixed(1)} s, outcome ${outcome.kind}, ` +
      `height ${reached}/${height}${outcome.kind === 'stalled' ? `: ${outcome.reason}` : ''})`,
  );
  console.log(
    `ledger acceptBlock (deserialize + verify + apply + store): ` +
      `${((timed.ledgerMs / 1000 / seconds) * 100).toFixed(1)}% of the time`,
  );
  console.log(
    `memory: rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`,
  );
  // Verification alone: the same blocks verified again outside the pipeline, on one thread
  // (signatures, ids, payload hash and totals; reading them back is not timed).
  let verifyMs = 0;
  for (let from = 2; from <= height; from += 400) {
    const blocks = await freshDb.store.blocksInRange(from, Math.min(from + 399, height));
    const started = performance.now();
    for (const block of blocks) {
      const { verified } = verifyBlock(block, network.milestones, { registrationsOf: () => ({}) });
      if (!verified) throw new Error(`block ${block.height} does not verify`);
    }
    verifyMs += performance.now() - started;
  }
  console.log(
    `verification alone: ${(verifyMs / 1000).toFixed(1)} s, ` +
      `${((verifyMs / 1000 / seconds) * 100).toFixed(1)}% of the sync time`,
  );
  await node.stop();
  await Promise.all(peers.map((peer) => peer.stop()));
} finally {
  await Promise.all([servingDb.close(), freshDb.close()]);
}
