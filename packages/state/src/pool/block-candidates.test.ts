import { describe, expect, it } from 'vitest';
import { Milestones, serializeTransaction, type TransactionData } from '@lni/crypto';
import type { FullBlock } from '../blocks/block-store.js';
import {
  addressOf,
  ALICE,
  BOB,
  PUB_KEY_HASH,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { blockCandidates } from './block-candidates.js';
import { PoolLedger } from './pool-ledger.js';
import { poolNetwork, poolParts } from './__fixtures__/pool-world.js';

const alice = addressOf(ALICE);
const bob = addressOf(BOB);

/** Parts whose pool holds `transactions`, admitted in that order. */
function poolOf(transactions: readonly TransactionData[]) {
  const parts = poolParts({ maxPerSender: 50 });
  const judged = parts.admission.admitAll(
    transactions,
    () => 1_000,
    transactions.map(() => ({})),
  );
  expect(judged.rejected).toEqual([]);
  return parts;
}

const ids = (entries: readonly { id: string }[]) => entries.map((entry) => entry.id);

describe('blockCandidates', () => {
  it("takes the best fee per byte first, each sender's in nonce order", () => {
    const aliceCheap = transferOf(ALICE, bob, 1n, 1n, 1_000_000n);
    const aliceRich = transferOf(ALICE, bob, 1n, 2n, 90_000_000n);
    const bobMiddle = transferOf(BOB, alice, 1n, 1n, 5_000_000n);
    const { index, ledger } = poolOf([aliceCheap, aliceRich, bobMiddle]);
    expect(ids(blockCandidates(index, ledger))).toEqual([
      bobMiddle.id,
      aliceCheap.id,
      aliceRich.id,
    ]);
  });

  it("stays within the milestone's maxTransactions and maxPayload", () => {
    const many = Array.from({ length: 25 }, (_, i) => transferOf(ALICE, bob, 1n, BigInt(i + 1)));
    const full = poolOf(many);
    expect(blockCandidates(full.index, full.ledger)).toHaveLength(20);
    // From the next height on, room for the header reserve and three transactions with their
    // length prefixes.
    const size = serializeTransaction(many[0] as TransactionData).length;
    const generated = poolNetwork.generated.milestones;
    const block = { ...poolNetwork.milestones.at(1).block, maxPayload: 256 + 3 * (4 + size) };
    const tight = new PoolLedger({
      wallets: full.wallets,
      milestones: new Milestones([...generated, { height: 2, block }]),
      network: { pubKeyHash: PUB_KEY_HASH },
      tip: () => full.processor.lastBlock as FullBlock,
      staticFees: false,
    });
    expect(ids(blockCandidates(full.index, tight))).toEqual(many.slice(0, 3).map((tx) => tx.id));
  });

  it('leaves out a sender from the transaction that no longer applies on, and changes no wallet', () => {
    const aliceTxs = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n));
    const bobTx = transferOf(BOB, alice, 1n, 1n);
    const { index, ledger, wallets } = poolOf([...aliceTxs, bobTx]);
    // Alice's funds went elsewhere since her transactions were pooled.
    wallets.update(alice, { balance: 0n });
    const before = [...wallets.all()];
    expect(ids(blockCandidates(index, ledger))).toEqual([bobTx.id]);
    expect([...wallets.all()]).toEqual(before);
  });
});
