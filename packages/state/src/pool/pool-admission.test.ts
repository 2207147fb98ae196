import { describe, expect, it } from 'vitest';
import { serializeTransaction, transfer, type TransactionData } from '@lni/crypto';
import {
  addressOf,
  ALICE,
  BOB,
  keysOf,
  PUB_KEY_HASH,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { poolParts } from './__fixtures__/pool-world.js';

const alice = addressOf(ALICE);
const bob = addressOf(BOB);
const at = () => 5_000;

describe('PoolAdmission', () => {
  it("judges each transaction on state after the sender's pooled ones, and indexes it", () => {
    const { admission, index, wallets } = poolParts();
    const before = wallets.get(alice);
    const [a1, a2, a4] = [1n, 2n, 4n].map((n) => transferOf(ALICE, bob, 1n, n));
    const judged = admission.admitAll([a1!, a2!, a4!], at, [{}, {}, {}]);
    expect(judged.admitted.map(({ index: i, entry }) => [i, entry.id])).toEqual([
      [0, a1!.id],
      [1, a2!.id],
    ]);
    expect(judged.rejected).toMatchObject([{ index: 2, id: a4!.id, reason: 'ERR_TX_NONCE' }]);
    expect(index.senderEntries(alice).map((entry) => entry.id)).toEqual([a1!.id, a2!.id]);
    expect(index.get(a1!.id as string)).toMatchObject({
      sender: alice,
      bytes: serializeTransaction(a1!),
      addedAt: 5_000,
    });
    // Judging changed no wallet.
    expect(wallets.get(alice)).toBe(before);
  });

  it('keeps the registrations the signatures verified under; a trusted one has none', async () => {
    const { admission, index } = poolParts();
    const [a1, b1] = [transferOf(ALICE, bob, 1n, 1n), transferOf(BOB, alice, 1n, 1n)];
    const verdicts = await admission.verify([a1, b1]);
    expect(verdicts).toEqual([{}, {}]);
    admission.admitAll([a1, b1], at, [verdicts[0]!, 'trusted']);
    expect(index.get(a1.id as string)?.verifiedUnder).toEqual({});
    expect(index.get(b1.id as string)?.verifiedUnder).toBeUndefined();
  });

  it('refuses, each for its reason, in the order given', () => {
    const { admission, index } = poolParts({ maxPerSender: 2 });
    const [a1, a2, a3] = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
    const otherNetwork = transfer({ network: 30 })
      .recipientId(bob)
      .amount(1n)
      .nonce(1n)
      .sign(keysOf(BOB))
      .build();
    const expired = transfer({ network: PUB_KEY_HASH })
      .recipientId(alice)
      .amount(1n)
      .fee(10_000_000n)
      .nonce(1n)
      .expiration(1)
      .sign(keysOf(BOB))
      .build();
    const wrongId: TransactionData = { ...transferOf(BOB, alice, 1n, 1n), id: 'ff'.repeat(32) };
    const badlySigned = transferOf(BOB, alice, 2n, 1n);
    const judged = admission.admitAll(
      [a1!, a1!, a2!, a3!, otherNetwork, expired, wrongId, badlySigned],
      at,
      [{}, {}, {}, {}, {}, {}, {}, 'invalid'],
    );
    expect(judged.rejected.map((r) => [r.index, r.reason])).toEqual([
      [1, 'duplicate'],
      [3, 'sender.full'],
      [4, 'invalid'],
      [5, 'expired'],
      [6, 'invalid'],
      [7, 'signature'],
    ]);
    expect(index.size).toBe(2);
  });
});
