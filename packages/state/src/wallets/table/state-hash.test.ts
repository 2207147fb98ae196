import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Wallet } from '../wallet.js';
import { canonicalWallet, StateHash, walletDigest } from './state-hash.js';

/** JSON with every object's keys sorted and bigints as decimal strings, written the long way. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner === 'bigint') return inner.toString();
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(
      Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });
}

const plain: Wallet = { address: 'DPlain"quoted', balance: 12n, nonce: 0n, attributes: {} };
const delegate: Wallet = {
  address: 'DDelegate',
  publicKey: `02${'a'.repeat(64)}`,
  balance: -5n,
  nonce: 3n,
  attributes: {
    vote: `03${'b'.repeat(64)}`,
    delegate: {
      username: 'zed',
      voteBalance: 10n,
      forgedFees: 1n,
      forgedRewards: 2n,
      producedBlocks: 4,
      lastBlock: { id: 'x', height: 9, timestamp: 1 } as never,
    },
  },
};

describe('the state hash', () => {
  it("writes a wallet's canonical text as the wallet with every key sorted", () => {
    for (const wallet of [plain, delegate]) {
      expect(canonicalWallet(wallet)).toBe(
        sortedJson({ ...wallet, publicKey: wallet.publicKey ?? null }),
      );
      expect(walletDigest(wallet)).toBe(
        BigInt(`0x${createHash('sha256').update(canonicalWallet(wallet)).digest('hex')}`),
      );
    }
  });

  it('comes to the same value by a reset as by changes, in any order, and changes with any byte', () => {
    const all = new StateHash();
    all.reset([plain, delegate]);
    const stepwise = new StateHash();
    stepwise.reset([]);
    stepwise.change([[delegate.address, delegate]]).apply();
    stepwise.change([[plain.address, plain]]).apply();
    expect(stepwise.hex).toBe(all.hex);
    const changed = new StateHash();
    changed.reset([plain, { ...delegate, attributes: { ...delegate.attributes, vote: 'x' } }]);
    expect(changed.hex).not.toBe(all.hex);
  });
});
