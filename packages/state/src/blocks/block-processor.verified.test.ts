import { afterAll, describe, expect, it } from 'vitest';
import {
  transfer,
  VerificationPool,
  type TransactionData,
  type VerificationItem,
} from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { poolOptions } from '../pool/pool-options.js';
import { TransactionPool } from '../pool/transaction-pool.js';
import { BlockRejectedError } from './block-rejected-error.js';
import type { FullBlock } from './block-store.js';
import { MemoryBlockStore } from './__fixtures__/memory-block-store.js';
import {
  addressOf,
  ALICE,
  BOB,
  keysOf,
  nextBlock,
  PUB_KEY_HASH,
  testNetwork,
  testProcessor,
  transferOf,
} from './__fixtures__/test-chain.js';

/** Counts the signatures it is given to check. */
class CountingPool extends VerificationPool {
  checked = 0;
  override verify(items: readonly VerificationItem[]): Promise<boolean[]> {
    this.checked += items.length;
    return super.verify(items);
  }
}

const network = testNetwork();
const bob = addressOf(BOB);
const workers = new CountingPool({ size: 1 });
afterAll(() => workers.close());

/** A processor past genesis, on the counting workers, that asks `pool` what it verified. */
async function processorAndPool() {
  const { wallets, processor } = testProcessor(network, new MemoryBlockStore(), {
    verificationPool: workers,
    verifiedTransactions: { verifiedUnder: (id) => pool.verifiedUnder(id) },
  });
  // Verifies on this thread, so that the counted signatures are the processor's.
  const pool: TransactionPool = new TransactionPool({
    wallets,
    milestones: network.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    tip: () => processor.lastBlock ?? { height: 0, timestamp: 0 },
    poolOptions: poolOptions({ staticFees: false }),
    logger: testLogger(),
  });
  await processor.process(network.genesis);
  return { wallets, processor, pool };
}

describe('BlockProcessor and the transactions the pool verified', () => {
  it("checks only the block's own signature when the pool verified every transaction", async () => {
    const { processor, pool } = await processorAndPool();
    const pooled = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
    expect((await pool.add(pooled)).accepted).toHaveLength(3);
    const unpooled = transferOf(BOB, bob, 1n, 1n);
    const block = nextBlock(network, processor.lastBlock as FullBlock, [...pooled, unpooled]);
    workers.checked = 0;
    await processor.process(block);
    // The block signature and the one transaction the pool never saw.
    expect(workers.checked).toBe(2);
    expect(processor.lastBlock?.id).toBe(block.id);
  });

  it("verifies again a pooled transaction whose sender's second key changed since", async () => {
    const { wallets, processor, pool } = await processorAndPool();
    const [first, second] = ['alice first second key', 'alice other second key'].map((secret) =>
      keysOf(secret),
    );
    const alice = addressOf(ALICE);
    wallets.update(alice, { attributes: { secondPublicKey: first!.publicKey.toString('hex') } });
    const signedForFirst: TransactionData = transfer({ network: PUB_KEY_HASH })
      .recipientId(bob)
      .amount(1n)
      .nonce(1n)
      .sign(keysOf(ALICE))
      .secondSign(first!)
      .build();
    expect((await pool.add([signedForFirst])).accepted).toEqual([signedForFirst.id]);
    // The wallet's second key is another one now (a revert, then another registration, say),
    // and the pool still holds the transaction signed for the first.
    wallets.update(alice, { attributes: { secondPublicKey: second!.publicKey.toString('hex') } });
    const block = nextBlock(network, processor.lastBlock as FullBlock, [signedForFirst]);
    const error = await processor.process(block).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockRejectedError);
    expect(error).toMatchObject({ rule: 'transactionSignature', transaction: { index: 0 } });
  });
});

function testLogger() {
  return createLogger({ level: 'fatal' });
}
