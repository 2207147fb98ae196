import { createLogger } from '@lni/kernel';
import { startTestNode, type TestNode } from '@lni/p2p/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FullBlock } from '../blocks/block-store.js';
import {
  ALICE,
  BOB,
  addressOf,
  nextBlock,
  PUB_KEY_HASH,
  testNetwork,
  testProcessor,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { openTestStore } from '../blocks/__fixtures__/test-database.js';
import { poolOptions } from '../pool/pool-options.js';
import { TransactionPool } from '../pool/transaction-pool.js';
import { RoundKeeper } from '../rounds/round-keeper.js';
import { LedgerChain } from './ledger-chain.js';

const logger = createLogger({ level: 'fatal' });
const network = testNetwork();
type Store = Awaited<ReturnType<typeof openTestStore>>;

/** A node's ledger on its own PostgreSQL database, as the state plugin wires it. */
function ledger(db: Store) {
  const { wallets, processor } = testProcessor(network, db.store);
  const port = new LedgerChain({
    blockProcessor: processor,
    transactionPool: new TransactionPool({
      wallets,
      milestones: network.milestones,
      network: { pubKeyHash: PUB_KEY_HASH },
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
  return { wallets, processor, port };
}

/** Extends `from` by `count` blocks, each `slotsLater` slots apart, each with one transfer. */
async function extend(
  node: ReturnType<typeof ledger>,
  count: number,
  slotsLater: number,
  sender: string,
): Promise<FullBlock[]> {
  const made: FullBlock[] = [];
  let previous = node.processor.lastBlock as FullBlock;
  for (let i = 0; i < count; i++) {
    const nonce = (node.wallets.get(addressOf(sender))?.nonce ?? 0n) + 1n;
    const tx = transferOf(sender, addressOf(`p2p sync ${i}`), 1_000n + BigInt(i), nonce);
    const block = nextBlock(network, previous, [tx], { slotsLater });
    await node.processor.process(block);
    made.push(block);
    previous = block;
  }
  return made;
}

// The real ledger behind the real p2p plugin, two nodes on loopback each with its own database:
// split by a partition, each extended its chain; reconnected, the shorter one rolls back to the
// block they share and follows the longer one, though the peer answers one block at a time.
describe('ledger sync over p2p: a partition heals', () => {
  const dbs: Store[] = [];
  const nodes: TestNode[] = [];
  let a: ReturnType<typeof ledger>;
  let b: ReturnType<typeof ledger>;
  let common: FullBlock[];
  let longer: FullBlock[];

  beforeAll(async () => {
    dbs.push(await openTestStore(), await openTestStore());
    a = ledger(dbs[0]!);
    b = ledger(dbs[1]!);
    for (const node of [a, b]) await node.processor.process(network.genesis);
    common = await extend(a, 4, 1, ALICE);
    for (const block of common) await b.processor.process(block);
    // The partition: each side forges on alone, in different slots and with different payloads.
    longer = await extend(a, 8, 1, ALICE);
    await extend(b, 3, 2, BOB);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await Promise.all(dbs.map((db) => db.close()));
  });

  it('the node on the shorter branch reverts to the common block and follows the longer', async () => {
    const forkPoint = common.at(-1)!.height;
    expect(b.processor.lastBlock?.height).toBe(forkPoint + 3);
    expect(b.processor.lastBlock?.id).not.toBe(longer[2]!.id);
    // One block per getBlocks answer (the byte budget), as with full blocks: sync must ask on.
    const serving = await startTestNode({
      ledger: a.port,
      options: { sync: { enabled: false, maxBytesPerReply: 1 } },
    });
    nodes.push(serving);
    const following = await startTestNode({
      ledger: b.port,
      seeds: [{ ip: '127.0.0.1', port: serving.port }],
    });
    nodes.push(following);

    const outcome = await following.kernel.cradle.blockSync.sync();
    expect(outcome).toMatchObject({ kind: 'synced', height: longer.at(-1)!.height });
    expect(await b.port.blockIds(longer.map((block) => block.height))).toEqual(
      longer.map(({ id, height }) => ({ id, height })),
    );
    // Bob's transfers of the abandoned branch are gone from state; Alice's all applied.
    expect(b.wallets.get(addressOf(BOB))?.nonce ?? 0n).toBe(0n);
    expect(b.wallets.get(addressOf(ALICE))?.nonce).toBe(a.wallets.get(addressOf(ALICE))?.nonce);
    expect(b.wallets.get(addressOf(ALICE))?.balance).toBe(a.wallets.get(addressOf(ALICE))?.balance);
  }, 60_000);
});

// A fresh relay joining a network: thousands of blocks, downloaded in batches over the real
// p2p plugin and applied by the real ledger, each node on its own PostgreSQL database.
describe('ledger sync over p2p: a fresh node catches up on thousands of blocks', () => {
  const BLOCKS = 2_000;
  const dbs: Store[] = [];
  const nodes: TestNode[] = [];
  let serving: ReturnType<typeof ledger>;
  let fresh: ReturnType<typeof ledger>;

  beforeAll(async () => {
    dbs.push(await openTestStore(), await openTestStore());
    serving = ledger(dbs[0]!);
    fresh = ledger(dbs[1]!);
    for (const node of [serving, fresh]) await node.processor.process(network.genesis);
    await extend(serving, BLOCKS, 1, ALICE);
  }, 240_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await Promise.all(dbs.map((db) => db.close()));
  });

  it('reaches the peer’s height with the same blocks and the same wallets', async () => {
    const peer = await startTestNode({ ledger: serving.port });
    nodes.push(peer);
    const joining = await startTestNode({
      ledger: fresh.port,
      seeds: [{ ip: '127.0.0.1', port: peer.port }],
      options: { sync: { enabled: false, batchSize: 400, parallelDownloads: 3 } },
    });
    nodes.push(joining);

    const outcome = await joining.kernel.cradle.blockSync.sync();

    expect(outcome).toMatchObject({ kind: 'synced', height: BLOCKS + 1 });
    expect(fresh.processor.lastBlock?.id).toBe(serving.processor.lastBlock?.id);
    const heights = [2, 401, 1_000, 1_600, BLOCKS + 1];
    expect(await fresh.port.blockIds(heights)).toEqual(await serving.port.blockIds(heights));
    const wallets = (node: ReturnType<typeof ledger>) =>
      [...node.wallets.all()].sort((x, y) => x.address.localeCompare(y.address));
    expect(wallets(fresh)).toEqual(wallets(serving));
  }, 240_000);
});
