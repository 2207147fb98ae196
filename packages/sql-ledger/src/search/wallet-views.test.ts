import { describe, expect, it } from 'vitest';
import { WalletViews, type WalletTextRow } from './wallet-views.js';

const row = (
  address: string,
  version: string,
  balance = '5',
  attributes: object = {},
): WalletTextRow => ({
  address,
  version,
  public_key: null,
  balance_text: balance,
  nonce_text: '0',
  attributes_text: JSON.stringify(attributes),
});

describe('WalletViews', () => {
  it('gives the same frozen wallet for a row of the same version, with its amounts revived', () => {
    const views = new WalletViews();
    const delegate = { delegate: { username: 'd', voteBalance: '7' } };
    const first = views.viewOf(row('A', '10/3', '5', delegate));
    expect(views.viewOf(row('A', '10/3', '5', delegate))).toBe(first);
    expect(views.keptAt('A', '10/3')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual({
      address: 'A',
      balance: 5n,
      nonce: 0n,
      attributes: { delegate: { username: 'd', voteBalance: 7n } },
    });
  });

  it('gives a new wallet once its row has another version, and keeps only the newest', () => {
    const views = new WalletViews();
    const first = views.viewOf(row('A', '10/3'));
    const richer = views.viewOf(row('A', '11/3', '6'));
    expect(richer).not.toBe(first);
    expect(richer.balance).toBe(6n);
    expect(views.keptAt('A', '10/3')).toBeUndefined();
    expect(views.keptAt('A', '11/3')).toBe(richer);
    expect(views.keptAt('B', '11/3')).toBeUndefined();
  });

  it('keeps at most its bound, dropping first the wallets not read since they were kept', () => {
    const views = new WalletViews(2);
    const a = views.viewOf(row('A', '1/1'));
    const b = views.viewOf(row('B', '1/1'));
    expect(views.keptAt('A', '1/1')).toBe(a);
    views.viewOf(row('C', '1/1'));
    expect(views.keptAt('A', '1/1')).toBe(a);
    expect(views.keptAt('B', '1/1')).toBeUndefined();
    expect(views.viewOf(row('B', '1/1'))).not.toBe(b);
  });

  it('keeps a wallet every page reads while others come and go past the bound', () => {
    const views = new WalletViews(3);
    const hot = views.viewOf(row('HOT', '1/1'));
    for (let n = 0; n < 20; n += 1) {
      views.viewOf(row(`COLD${n}`, '1/1'));
      expect(views.keptAt('HOT', '1/1')).toBe(hot);
    }
    const kept = Array.from({ length: 20 }, (_, n) => views.keptAt(`COLD${n}`, '1/1'));
    expect(kept.filter((wallet) => wallet !== undefined)).toHaveLength(2);
  });
});
