import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationPool, type TransactionData } from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { BlockProcessor } from './block-processor.js';
import { BlockRejectedError } from './block-rejected-error.js';
import {
  addressOf,
  ALICE,
  BOB,
  nextBlock,
  PUB_KEY_HASH,
  testNetwork,
  transferOf,
} from './__fixtures__/test-chain.js';
import { openTestStore } from './__fixtures__/test-database.js';

describe('BlockProcessor verifying signatures on the VerificationPool', () => {
  const network = testNetwork();
  const pool = new VerificationPool({ size: 2 });
  let db: Awaited<ReturnType<typeof openTestStore>>;
  let processor: BlockProcessor;

  beforeAll(async () => {
    db = await openTestStore();
    processor = new BlockProcessor({
      wallets: new WalletRepository(),
      milestones: network.milestones,
      network: { pubKeyHash: PUB_KEY_HASH },
      forgingSchedule: network.schedule,
      blockStore: db.store,
      logger: createLogger({ level: 'fatal' }),
      verificationPool: pool,
    });
    await processor.process(network.genesis);
  });
  afterAll(async () => {
    await pool.close();
    await db?.close();
  });

  it('accepts a block of valid signatures and names the forged one in a bad block', async () => {
    const bob = addressOf(BOB);
    const txs = Array.from({ length: 30 }, (_, i) => transferOf(ALICE, bob, 1n, BigInt(i + 1)));
    const good = nextBlock(network, network.genesis, txs);
    await processor.process(good);
    expect(processor.lastBlock?.id).toBe(good.id);

    const next = Array.from({ length: 30 }, (_, i) => transferOf(ALICE, bob, 1n, BigInt(i + 31)));
    const { id: _id, ...unsigned } = next[17] as TransactionData;
    next[17] = { ...unsigned, signature: next[16]?.signature as string };
    const error = await processor.process(nextBlock(network, good, next)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockRejectedError);
    expect(error).toMatchObject({ rule: 'transactionSignature', transaction: { index: 17 } });
    expect(processor.lastBlock?.id).toBe(good.id);
  });
});
