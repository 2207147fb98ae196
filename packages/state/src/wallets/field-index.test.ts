import { OrderedSet } from '@js-sdsl/ordered-set';
import { describe, expect, it } from 'vitest';
import { after, before, FieldIndex } from './field-index.js';
import { walletField, type WalletField } from './fields.js';
import { emptyWallet } from './wallet-change.js';

describe('FieldIndex', () => {
  const field = walletField('balance') as WalletField;
  const index = new FieldIndex(field);
  const wallets = Array.from({ length: 1_000 }, (_, n) => ({
    wallet: { ...emptyWallet(`A${String(n).padStart(5, '0')}`), balance: BigInt((n * 37) % 200) },
  }));
  for (const slot of wallets) index.insert(slot);
  const all = [...index.scan(undefined, undefined, false)];

  it('skips to any depth, both ways and within bounds, as a walk from the start would', () => {
    const from = after(20n);
    const to = before(150n);
    const inRange = all.filter((w) => w.balance > 20n && w.balance < 150n);
    for (const skip of [0, 1, 2, 99, 500, 999, 1_000]) {
      expect([...index.scan(undefined, undefined, false, skip)]).toEqual(all.slice(skip));
      expect([...index.scan(undefined, undefined, true, skip)]).toEqual(
        [...all].reverse().slice(skip),
      );
      expect([...index.scan(from, to, false, skip)]).toEqual(inRange.slice(skip));
      expect([...index.scan(from, to, true, skip)]).toEqual([...inRange].reverse().slice(skip));
    }
  });

  it('finds a deep position by subtree sizes: js-sdsl still keeps them where it is read', () => {
    const set = new OrderedSet<number>([3, 1, 2], (a, b) => a - b, true);
    const root = (set as unknown as { A: { g: number; u: number; i?: { g: number } } }).A;
    expect(root.g).toBe(3);
    expect(root.u).toBe(2);
    expect(root.i?.g).toBe(1);
  });
});
