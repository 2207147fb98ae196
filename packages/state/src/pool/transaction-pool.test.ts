import { describe, expect, it } from 'vitest';
import { transfer, VerificationPool, type TransactionData } from '@lni/crypto';
import { createLogger, EventBus } from '@lni/kernel';
import type { BlockStore, FullBlock } from '../blocks/block-store.js';
import type { ChainListener } from '../blocks/chain-listener.js';
import {
  addressOf,
  ALICE,
  BOB,
  INITIAL_BALANCE,
  nextBlock,
  PUB_KEY_HASH,
  testNetwork,
  testProcessor,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { MemoryBlockStore } from '../blocks/__fixtures__/memory-block-store.js';
import { poolEvents } from './pool-events.js';
import { PoolJournal } from './pool-journal.js';
import { poolOptions, type PoolOptions } from './pool-options.js';
import { TransactionPool } from './transaction-pool.js';

const network = testNetwork({ maxTransactions: 20 });
const logger = createLogger({ level: 'fatal' });
const alice = addressOf(ALICE);
const bob = addressOf(BOB);
const noStorage = new Proxy({} as BlockStore, {
  get: () => () => Promise.reject(new Error('the pool tests use no storage')),
});

/** Wallets after the genesis block, and a pool over them. */
function world(
  options: Partial<PoolOptions> = {},
  now = () => 1_000_000,
  verificationPool?: VerificationPool,
  events?: EventBus,
) {
  const { wallets, processor } = testProcessor(network, noStorage);
  processor.applyToState(network.genesis);
  const pool = new TransactionPool({
    wallets,
    milestones: network.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    tip: () => processor.lastBlock ?? { height: 0, timestamp: 0 },
    poolOptions: poolOptions({ staticFees: false, ...options }),
    logger,
    clock: now,
    ...(verificationPool && { verificationPool }),
  });
  if (events) pool.subscribe(poolEvents(events));
  return { wallets, processor, pool };
}

/**
 * A pool that a processor (storing blocks in memory) tells of the chain as its listener, as
 * the state plugin wires them, after the genesis block.
 */
async function listeningWorld() {
  const listeners: ChainListener[] = [];
  const { wallets, processor } = testProcessor(network, new MemoryBlockStore(), {
    chainListeners: listeners,
  });
  const pool = new TransactionPool({
    wallets,
    milestones: network.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    tip: () => processor.lastBlock ?? { height: 0, timestamp: 0 },
    poolOptions: poolOptions({ staticFees: false }),
    logger,
  });
  listeners.push(pool);
  await processor.process(network.genesis);
  return { pool, processor };
}

const reasons = (result: { rejected: readonly { reason: string }[] }) =>
  result.rejected.map((r) => r.reason);

describe('TransactionPool', () => {
  it('orders the next block by fee per byte, each sender in nonce order', async () => {
    const { pool } = world();
    const aliceCheap = transferOf(ALICE, bob, 1n, 1n, 1_000_000n);
    const aliceRich = transferOf(ALICE, bob, 1n, 2n, 90_000_000n);
    const bobMiddle = transferOf(BOB, alice, 1n, 1n, 5_000_000n);
    const result = await pool.add([aliceCheap, aliceRich, bobMiddle]);
    expect(result.rejected).toEqual([]);
    expect(pool.collect().map((entry) => entry.id)).toEqual([
      bobMiddle.id,
      aliceCheap.id,
      aliceRich.id,
    ]);
  });

  it('takes a transaction that arrives while a block holding the one before it is written', async () => {
    const { pool, processor } = world();
    const first = transferOf(ALICE, bob, 1n, 1n);
    expect((await pool.add([first])).accepted).toEqual([first.id]);
    // The block processor moves the wallets first and writes the block; the pool drops what
    // the block took only on block.applied, after the write. In between, Alice sends again.
    const block = nextBlock(network, network.genesis, [first]);
    processor.applyToState(block);
    const second = transferOf(ALICE, bob, 1n, 2n);
    const result = await pool.add([second]);
    expect(result.rejected).toEqual([]);
    expect(result.accepted).toEqual([second.id]);
    pool.blockApplied(block);
    expect(pool.collect().map((entry) => entry.id)).toEqual([second.id]);
  });

  it('gives at most the milestone maxTransactions', async () => {
    const { pool } = world({ maxPerSender: 50 });
    const txs = Array.from({ length: 25 }, (_, i) => transferOf(ALICE, bob, 1n, BigInt(i + 1)));
    expect((await pool.add(txs)).accepted).toHaveLength(25);
    expect(pool.collect()).toHaveLength(20);
  });

  it('refuses each bad transaction with its own reason', async () => {
    const { pool } = world({ maxPerRequest: 6 });
    const first = transferOf(ALICE, bob, 1n, 1n);
    const otherNetwork = transfer({ network: 30 })
      .recipientId(bob)
      .amount(1n)
      .nonce(1n)
      .sign(BOB)
      .build();
    const { id: _id, ...unsigned } = transferOf(BOB, alice, 2n, 1n);
    const forged: TransactionData = {
      ...unsigned,
      signature: transferOf(BOB, alice, 3n, 1n).signature as string,
    };
    const result = await pool.add([
      first,
      first,
      transferOf(ALICE, bob, 1n, 5n),
      transferOf(BOB, alice, INITIAL_BALANCE, 1n),
      otherNetwork,
      forged,
      transferOf(BOB, alice, 1n, 1n),
    ]);
    expect(result.accepted).toEqual([first.id]);
    expect(reasons(result)).toEqual([
      'duplicate',
      'ERR_TX_NONCE',
      'ERR_TX_INSUFFICIENT_BALANCE',
      'invalid',
      'signature',
      'request.tooMany',
    ]);
    expect(result.rejected.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('verifies signatures in bulk on the VerificationPool', async () => {
    const workers = new VerificationPool({ size: 1 });
    try {
      const { pool } = world({}, undefined, workers);
      const good = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
      const { id: _id, ...unsigned } = transferOf(BOB, alice, 2n, 1n);
      const forged = { ...unsigned, signature: good[0]?.signature as string };
      const result = await pool.add([...good, forged]);
      expect(result.accepted).toEqual(good.map((tx) => tx.id));
      expect(result.rejected).toMatchObject([{ index: 3, reason: 'signature' }]);
    } finally {
      await workers.close();
    }
  });

  it('refuses a fee that differs from the static fee when static fees apply', async () => {
    const { pool } = world({ staticFees: true });
    const result = await pool.add([
      transferOf(ALICE, bob, 1n, 1n, 1n),
      transferOf(BOB, alice, 1n, 1n, 10_000_000n),
    ]);
    expect(reasons(result)).toEqual(['ERR_TX_FEE']);
    expect(result.accepted).toHaveLength(1);
  });

  it('fills in a missing id and refuses a wrong one', async () => {
    const { pool } = world();
    const { id, ...withoutId } = transferOf(ALICE, bob, 1n, 1n);
    expect((await pool.add([withoutId])).accepted).toEqual([id]);
    const wrongId = { ...transferOf(ALICE, bob, 1n, 2n), id: id as string };
    expect(reasons(await pool.add([wrongId]))).toEqual(['invalid']);
  });

  it('refuses expired transfers and malformed bytes', async () => {
    const { pool } = world();
    const expired = transfer({ network: PUB_KEY_HASH })
      .recipientId(bob)
      .amount(1n)
      .fee(10_000_000n)
      .nonce(1n)
      .expiration(1)
      .sign(ALICE)
      .build();
    expect(reasons(await pool.add([expired]))).toEqual(['expired']);
    expect(reasons(await pool.addSerialized(['ff00']))).toEqual(['malformed']);
  });

  it('limits transactions per sender and in total, evicting cheaper ones for richer', async () => {
    const { pool } = world({ maxPerSender: 2, maxTransactions: 3 });
    const a = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n, 2_000_000n));
    expect(reasons(await pool.add(a))).toEqual(['sender.full']);
    const bobCheap = transferOf(BOB, alice, 1n, 1n, 1_000_000n);
    expect((await pool.add([bobCheap])).accepted).toEqual([bobCheap.id]);
    // Full: a newcomer ranking below every other sender's tail is refused.
    const bobNext = transferOf(BOB, alice, 1n, 2n, 500_000n);
    expect(reasons(await pool.add([bobNext]))).toEqual(['pool.full']);
    // A richer one evicts the worst tail of another sender (alice's nonce 2).
    const richBob = transferOf(BOB, alice, 1n, 2n, 50_000_000n);
    expect((await pool.add([richBob])).accepted).toEqual([richBob.id]);
    expect(pool.has(a[1]?.id as string)).toBe(false);
    expect(pool.bySender(alice).map((tx) => tx.id)).toEqual([a[0]?.id]);
    expect(pool.size).toBe(3);
  });

  it('announces each transaction it takes and each that leaves, with why it left', async () => {
    const events = new EventBus(logger);
    const seen: string[] = [];
    events.on('transaction.pool.added', ({ transaction, origin }) => {
      seen.push(`added ${transaction.id} ${origin}`);
    });
    events.on('transaction.pool.removed', ({ transaction, reason }) => {
      seen.push(`removed ${transaction.id} ${reason}`);
    });
    const { pool, processor } = world({ maxTransactions: 3 }, undefined, undefined, events);
    const [a1, a2] = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n, 2_000_000n));
    const bobCheap = transferOf(BOB, alice, 1n, 1n, 1_000_000n);
    await pool.add([a1!, a2!, bobCheap]);
    // Full: a richer transaction of Bob's evicts Alice's cheaper tail.
    const richBob = transferOf(BOB, alice, 1n, 2n, 50_000_000n);
    await pool.add([richBob]);
    // A block confirms Alice's first; Bob's nonce 1 went in elsewhere, so his pooled ones fail.
    const block = nextBlock(network, processor.lastBlock as FullBlock, [
      a1!,
      transferOf(BOB, alice, 7n, 1n),
    ]);
    processor.applyToState(block);
    pool.blockApplied(block);
    expect(seen).toEqual([
      `added ${a1!.id} submitted`,
      `added ${a2!.id} submitted`,
      `added ${bobCheap.id} submitted`,
      `added ${richBob.id} submitted`,
      `removed ${a2!.id} evicted`,
      `removed ${a1!.id} confirmed`,
      `removed ${bobCheap.id} dropped`,
      `removed ${richBob.id} dropped`,
    ]);
  });

  it('drops what a block includes and what it invalidates', async () => {
    const { pool, processor } = world();
    const aliceTxs = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n));
    const bobPooled = [1n, 2n].map((n) => transferOf(BOB, alice, 1n, n));
    await pool.add([...aliceTxs, ...bobPooled]);
    // Bob spent nonce 1 elsewhere: his pooled sequence no longer applies.
    const bobElsewhere = transferOf(BOB, alice, 7n, 1n);
    const block = nextBlock(network, processor.lastBlock as FullBlock, [
      aliceTxs[0] as TransactionData,
      bobElsewhere,
    ]);
    processor.applyToState(block);
    pool.blockApplied(block);
    expect([...pool.entries()].map((e) => e.id)).toEqual([aliceTxs[1]?.id]);
  });

  it('takes back the transactions of reverted blocks', async () => {
    const { pool, processor, wallets } = world();
    const tx = transferOf(ALICE, bob, 1n, 1n);
    const block = nextBlock(network, processor.lastBlock as FullBlock, [tx]);
    const checkpoint = wallets.checkpoint();
    processor.applyToState(block);
    pool.blockApplied(block);
    wallets.rollback(checkpoint);
    await pool.blocksReverted([block]);
    expect(pool.has(tx.id as string)).toBe(true);
  });

  it('follows the blocks the processor applies and reverts, as its chain listener', async () => {
    const { pool, processor } = await listeningWorld();
    const tx = transferOf(ALICE, bob, 1n, 1n);
    await pool.add([tx]);
    const block = nextBlock(network, processor.lastBlock as FullBlock, [tx]);
    await processor.process(block);
    expect(pool.has(tx.id as string)).toBe(false);
    await processor.revertTo(block.height - 1);
    expect(pool.has(tx.id as string)).toBe(true);
  });

  it('takes back the transactions of several reverted blocks ahead of the waiting ones', async () => {
    const { pool, processor } = await listeningWorld();
    const [a1, a2, a3] = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
    const first = nextBlock(network, processor.lastBlock as FullBlock, [a1 as TransactionData]);
    await processor.process(first);
    await processor.process(nextBlock(network, first, [a2 as TransactionData]));
    await pool.add([a3 as TransactionData]);
    // One revert of both blocks, newest first for the processor, oldest first for the pool.
    await processor.revertTo(first.height - 1);
    expect(pool.bySender(alice).map((tx) => tx.id)).toEqual([a1?.id, a2?.id, a3?.id]);
  });

  it('refuses what storage failed to keep, and holds none of it', async () => {
    const failing = {
      save: () => Promise.reject(new Error('connection lost')),
      remove: () => Promise.resolve(),
    };
    const { wallets, processor } = testProcessor(network, noStorage);
    processor.applyToState(network.genesis);
    const pool = new TransactionPool({
      wallets,
      milestones: network.milestones,
      network: { pubKeyHash: PUB_KEY_HASH },
      tip: () => processor.lastBlock ?? { height: 0, timestamp: 0 },
      poolOptions: poolOptions({ staticFees: false }),
      logger,
      journal: new PoolJournal({ poolStorage: failing, logger }),
    });
    const announced: number[] = [];
    pool.subscribe({ added: (entries) => announced.push(entries.length) });
    const txs = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n));
    const result = await pool.add(txs);
    expect(result.accepted).toEqual([]);
    expect(result.rejected).toMatchObject([
      { index: 0, id: txs[0]?.id, reason: 'storage' },
      { index: 1, id: txs[1]?.id, reason: 'storage' },
    ]);
    expect(result.rejected[0]?.message).toContain('connection lost');
    expect(pool.size).toBe(0);
    expect(announced).toEqual([]);
  });
});
