import { addressFromPublicKey, type TransactionData } from '@lni/crypto';
import { describe, expect, it } from 'vitest';
import { sightingsOf } from './sightings.js';

const TESTNET = 23;
const senderKey = '03287bfebba4c7881a0509717e71b34b63f31e40021c321f89ae04f84be6d6ac37';
const sender = addressFromPublicKey(senderKey, TESTNET);
const alice = 'ATyJ5ELpnA4x4W9H82cVVVw6DsgVErCeRj';
const bob = 'ANzAduuoMEvjPar2qowTwrCDSrRgkP8Qiq';

function transaction(fields: Partial<TransactionData>): TransactionData {
  return {
    version: 2,
    network: TESTNET,
    typeGroup: 1,
    type: 0,
    nonce: 1n,
    senderPublicKey: senderKey,
    fee: 10_000_000n,
    amount: 0n,
    id: 'a'.repeat(64),
    ...fields,
  };
}

describe('the sightings of a transaction', () => {
  it('sees a transfer to a watched address coming in, with its amount', () => {
    const transfer = transaction({ recipientId: alice, amount: 5n });
    expect(sightingsOf(transfer, 7, new Set([alice]))).toEqual([
      { address: alice, transactionId: 'a'.repeat(64), height: 7, amount: 5n, direction: 'in' },
    ]);
  });

  it('sees the sender going out with everything it sent, and ignores unwatched addresses', () => {
    const payments = transaction({
      type: 6,
      asset: {
        payments: [
          { recipientId: alice, amount: 2n },
          { recipientId: bob, amount: 3n },
          { recipientId: alice, amount: 4n },
        ],
      },
    });
    expect(sightingsOf(payments, 9, new Set([sender, alice]))).toEqual([
      expect.objectContaining({ address: sender, amount: 9n, direction: 'out' }),
      expect.objectContaining({ address: alice, amount: 6n, direction: 'in' }),
    ]);
    expect(sightingsOf(payments, 9, new Set(['AJjv7WztjJNYHrLAeveG5NgHWp6699ZJwD']))).toEqual([]);
  });
});
