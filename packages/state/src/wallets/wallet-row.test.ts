import { describe, expect, it } from 'vitest';
import { WALLET_FIELDS } from './fields.js';
import type { Wallet } from './wallet.js';
import { WALLET_COLUMNS, walletOfRow, walletRowOf } from './wallet-row.js';

const delegate: Wallet = {
  address: 'D61mfSggzbvQgTUe6JhYKH2doHaqJ3Dyib',
  publicKey: '03287bfebba4c7881a0509717e71b34b63f31e40021c321f89ae04f84be6d6ac37',
  balance: 12_345_678_901_234_567n,
  nonce: 18_000_000_000_000_000_000n,
  attributes: {
    delegate: {
      username: 'genesis_1',
      voteBalance: 9_999_999_999_999_999_999n,
      forgedFees: 10n,
      forgedRewards: 200_000_000n,
      producedBlocks: 3,
      missedBlocks: 1,
      rank: 7,
      lastBlock: {
        id: '1234',
        idHex: 'ab',
        version: 0,
        height: 3,
        timestamp: 24,
        previousBlock: '11',
        previousBlockHex: 'cd',
        numberOfTransactions: 0,
        totalAmount: 5n,
        totalFee: 6n,
        reward: 7n,
        payloadLength: 0,
        payloadHash: 'e3',
        generatorPublicKey: '03287bfebba4c7881a0509717e71b34b63f31e40021c321f89ae04f84be6d6ac37',
        blockSignature: '30',
      },
    },
    vote: '03287bfebba4c7881a0509717e71b34b63f31e40021c321f89ae04f84be6d6ac37',
    htlc: {
      lockedBalance: 42n,
      locks: {
        aa: {
          amount: 42n,
          recipientId: 'D61mfSggzbvQgTUe6JhYKH2doHaqJ3Dyib',
          secretHash: 'ff',
          expiration: { type: 2, value: 99 },
          timestamp: 5,
        },
      },
    },
    multiSignature: { min: 2, publicKeys: ['02aa', '03bb'] },
    ipfs: { hashes: { QmHash: true } },
  },
} as Wallet;

describe('wallet rows', () => {
  it('give back the wallet they were made of, amounts as bigint past 2^53', () => {
    const row = walletRowOf(delegate, 3);
    expect(walletOfRow(row)).toEqual(delegate);
    expect(row.updated_height).toBe(3);
    expect(row.delegate_vote_balance).toBe('9999999999999999999');
  });

  it('keep a wallet that never signed without a public key', () => {
    const plain: Wallet = { address: 'DAbc', balance: 1n, nonce: 0n, attributes: {} };
    const row = walletRowOf(plain, 1);
    expect(row.public_key).toBeNull();
    expect(walletOfRow(row)).toEqual(plain);
  });

  it('hold every indexed field in a column of its own, null when the wallet has no value', () => {
    expect(WALLET_COLUMNS.map((c) => c.field.path)).toEqual(WALLET_FIELDS.map((f) => f.path));
    const row = walletRowOf(delegate, 3);
    expect(row.delegate_forged_total).toBe('200000010');
    expect(row.delegate_resigned).toBe(false);
    const plain = walletRowOf({ address: 'DAbc', balance: 1n, nonce: 0n, attributes: {} }, 1);
    expect(plain.delegate_username).toBeNull();
  });
});
