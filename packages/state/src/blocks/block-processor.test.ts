import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vote, type TransactionData } from '@lni/crypto';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import { BlockRejectedError } from './block-rejected-error.js';
import type { BlockStore, FullBlock } from './block-store.js';
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
} from './__fixtures__/test-chain.js';
import { openTestStore } from './__fixtures__/test-database.js';

const snapshot = (wallets: WalletRepository) =>
  [...wallets.all()].sort((a, b) => a.address.localeCompare(b.address));

describe('BlockProcessor on PostgreSQL', () => {
  const network = testNetwork({ maxTransactions: 20 });
  let db: Awaited<ReturnType<typeof openTestStore>>;
  let failingSave = false;
  let chain: ReturnType<typeof testProcessor>;
  const alice = addressOf(ALICE);
  const bob = addressOf(BOB);

  beforeAll(async () => {
    db = await openTestStore();
    // Storage is the real one; only its save can be made to fail, to test the unit of work.
    const real = db.store;
    const store: BlockStore = {
      lastBlock: () => real.lastBlock(),
      blockById: (id) => real.blockById(id),
      blocksInRange: (from, to) => real.blocksInRange(from, to),
      save: (block) => (failingSave ? Promise.reject(new Error('disk full')) : real.save(block)),
      deleteAbove: (height) => real.deleteAbove(height),
      lastForgedBy: (key, height) => real.lastForgedBy(key, height),
      transactionById: (id) => real.transactionById(id),
    };
    chain = testProcessor(network, store);
    await chain.processor.process(network.genesis);
  });
  afterAll(async () => {
    await db?.close();
  });

  const last = () => chain.processor.lastBlock as FullBlock;

  /** Expects the block to be refused for `rule`, with wallets and storage as they were. */
  async function expectRejected(block: FullBlock, rule: string) {
    const before = snapshot(chain.wallets);
    const storedBefore = await db.store.lastBlock();
    const error = await chain.processor.process(block).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockRejectedError);
    expect((error as BlockRejectedError).rule).toBe(rule);
    expect(snapshot(chain.wallets)).toEqual(before);
    expect(await db.store.lastBlock()).toEqual(storedBefore);
    expect(chain.processor.lastBlock).toEqual(storedBefore && last());
    return error as BlockRejectedError;
  }

  it('applies the genesis block: balances, delegates and their self-votes', () => {
    expect(chain.wallets.get(alice)?.balance).toBe(INITIAL_BALANCE);
    expect(chain.wallets.delegateCount).toBe(5);
    expect(chain.processor.lastBlock?.height).toBe(1);
  });

  it('applies a block of transfers, pays the generator and stores the block', async () => {
    const txs = [transferOf(ALICE, bob, 5_000n, 1n), transferOf(ALICE, bob, 7_000n, 2n)];
    const block = nextBlock(network, last(), txs);
    await chain.processor.process(block);

    expect(chain.wallets.get(alice)?.balance).toBe(INITIAL_BALANCE - 12_000n - 20_000_000n);
    expect(chain.wallets.get(alice)?.nonce).toBe(2n);
    expect(chain.wallets.get(bob)?.balance).toBe(INITIAL_BALANCE + 12_000n);
    const generator = chain.wallets.byPublicKey(block.generatorPublicKey);
    expect(generator?.attributes.delegate).toMatchObject({
      producedBlocks: 1,
      forgedFees: 20_000_000n,
      forgedRewards: 200_000_000n,
      lastBlock: { id: block.id, height: 2 },
    });
    // The generator votes for itself, so its vote balance follows the reward and fees.
    expect(generator?.attributes.delegate?.voteBalance).toBe(generator?.balance);
    const stored = await db.store.blockById(block.id);
    expect(stored?.transactions?.map((tx) => tx.id)).toEqual(txs.map((tx) => tx.id));
  });

  it('reverting blocks returns exactly the earlier state and deletes them from storage', async () => {
    const before = snapshot(chain.wallets);
    const base = last();
    const b1 = nextBlock(network, base, [transferOf(ALICE, bob, 1_000n, 3n)]);
    await chain.processor.process(b1);
    const b2 = nextBlock(network, b1, [transferOf(ALICE, bob, 3_000n, 4n)], { slotsLater: 2 });
    await chain.processor.process(b2);
    expect(snapshot(chain.wallets)).not.toEqual(before);

    const reverted = await chain.processor.revertTo(base.height);
    expect(reverted.map((b) => b.height)).toEqual([b2.height, b1.height]);
    expect(snapshot(chain.wallets)).toEqual(before);
    expect((await db.store.lastBlock())?.id).toBe(base.id);
    expect(chain.processor.lastBlock?.id).toBe(base.id);
    // The same blocks apply again after the revert.
    await chain.processor.process(b1);
    await chain.processor.revertTo(base.height);
    expect(snapshot(chain.wallets)).toEqual(before);
  });

  it('refuses a double spend (ERR_TX_INSUFFICIENT_BALANCE)', async () => {
    const balance = chain.wallets.get(bob)?.balance as bigint;
    const half = (balance * 6n) / 10n;
    const nonce = (chain.wallets.get(bob)?.nonce ?? 0n) + 1n;
    const block = nextBlock(network, last(), [
      transferOf(BOB, alice, half, nonce),
      transferOf(BOB, alice, half, nonce + 1n),
    ]);
    const error = await expectRejected(block, 'ERR_TX_INSUFFICIENT_BALANCE');
    expect(error.transaction?.index).toBe(1);
  });

  it('refuses a replayed nonce (ERR_TX_NONCE)', async () => {
    const block = nextBlock(network, last(), [transferOf(ALICE, bob, 5_000n, 1n)]);
    await expectRejected(block, 'ERR_TX_NONCE');
  });

  it('refuses a forged transaction signature (rule transactionSignature)', async () => {
    const genuine = transferOf(ALICE, bob, 5_000n, 3n);
    const other = transferOf(ALICE, bob, 9_000n, 3n);
    const { id: _id, ...unsigned } = genuine;
    const forged: TransactionData = { ...unsigned, signature: other.signature as string };
    await expectRejected(nextBlock(network, last(), [forged]), 'transactionSignature');
  });

  it('refuses a block from the wrong delegate (rule generator)', async () => {
    const rightOne = network.schedule.forgerAt(0, (Math.floor(last().timestamp / 8) + 1) * 8);
    const wrong = network.delegateKeys.find((k) => k.publicKey.toString('hex') !== rightOne);
    await expectRejected(nextBlock(network, last(), [], { keys: wrong }), 'generator');
  });

  it("refuses a block in the last block's slot (rule slot)", async () => {
    await expectRejected(nextBlock(network, last(), [], { slotsLater: 0 }), 'slot');
  });

  it('refuses a block of a future slot when it knows the time (rule slot)', async () => {
    const tip = last();
    const withClock = testProcessor(network, db.store, { clock: () => tip.timestamp + 8 });
    await withClock.processor.initialize();
    const error = await withClock.processor
      .process(nextBlock(network, tip, [], { slotsLater: 3 }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ rule: 'slot', message: expect.stringContaining('future') });
    expect((await db.store.lastBlock())?.id).toBe(tip.id);
  });

  it('refuses a block that does not follow the tip (rules height, previousBlock)', async () => {
    const block = nextBlock(network, last(), []);
    await chain.processor.process(block);
    await expectRejected(nextBlock(network, network.genesis, [], { slotsLater: 20 }), 'height');
    await chain.processor.revertTo(block.height - 1);
  });

  it('refuses an oversized block (rule maxTransactions)', async () => {
    const start = (chain.wallets.get(alice)?.nonce ?? 0n) + 1n;
    const txs = Array.from({ length: 21 }, (_, i) => transferOf(ALICE, bob, 1n, start + BigInt(i)));
    await expectRejected(nextBlock(network, last(), txs), 'maxTransactions');
  });

  it('refuses a vote for an unknown delegate with the handler rule', async () => {
    const nonce = (chain.wallets.get(bob)?.nonce ?? 0n) + 1n;
    const bad = vote({ network: PUB_KEY_HASH })
      .vote('02' + 'ab'.repeat(32))
      .nonce(nonce)
      .sign(BOB)
      .build();
    await expectRejected(nextBlock(network, last(), [bad]), 'ERR_TX_VOTE');
  });

  it('leaves state unchanged when the storage write fails (rule storage)', async () => {
    const nonce = (chain.wallets.get(alice)?.nonce ?? 0n) + 1n;
    failingSave = true;
    try {
      await expectRejected(
        nextBlock(network, last(), [transferOf(ALICE, bob, 5n, nonce)]),
        'storage',
      );
    } finally {
      failingSave = false;
    }
  });
});
