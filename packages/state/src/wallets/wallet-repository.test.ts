import { describe, expect, it } from 'vitest';
import { WalletError } from './errors.js';
import type { DelegateAttributes } from './wallet.js';
import { WalletRepository } from './wallet-repository.js';

const KEY_A = `02${'a'.repeat(64)}`;
const KEY_B = `03${'b'.repeat(64)}`;

const delegate = (username: string, voteBalance = 0n): DelegateAttributes => ({
  username,
  voteBalance,
  forgedFees: 0n,
  forgedRewards: 0n,
  producedBlocks: 0,
});

describe('WalletRepository', () => {
  it('finds a wallet by address, public key and delegate username', () => {
    const repository = new WalletRepository();
    repository.update('DA', {
      publicKey: KEY_A,
      balance: 5n,
      attributes: { delegate: delegate('alice') },
    });
    const wallet = repository.get('DA');
    expect(wallet?.balance).toBe(5n);
    expect(repository.byPublicKey(KEY_A)).toBe(wallet);
    expect(repository.byUsername('alice')).toBe(wallet);
    expect(repository.find('alice')).toBe(wallet);
    expect(repository.delegateCount).toBe(1);
  });

  it('hands out frozen wallets: a change replaces the wallet and the old one stays as it was', () => {
    const repository = new WalletRepository();
    const first = repository.update('DA', { balance: 10n, attributes: { vote: KEY_A } });
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.attributes)).toBe(true);
    expect(() => {
      (first as { balance: bigint }).balance = 99n;
    }).toThrow(TypeError);
    const second = repository.update('DA', (w) => ({ balance: w.balance - 3n }));
    expect(first.balance).toBe(10n);
    expect(second.balance).toBe(7n);
    expect(second.attributes.vote).toBe(KEY_A);
  });

  it('removes an attribute set to undefined', () => {
    const repository = new WalletRepository();
    repository.update('DA', { attributes: { vote: KEY_A } });
    const wallet = repository.update('DA', { attributes: { vote: undefined } });
    expect('vote' in wallet.attributes).toBe(false);
  });

  it('answers an unknown address with an empty wallet without storing it', () => {
    const repository = new WalletRepository();
    expect(repository.getOrEmpty('DX')).toEqual({
      address: 'DX',
      balance: 0n,
      nonce: 0n,
      attributes: {},
    });
    expect(repository.has('DX')).toBe(false);
  });

  it.each([
    ['a duplicate public key', 'ERR_WALLET_DUPLICATE_PUBLIC_KEY', { publicKey: KEY_A }],
    [
      'a taken username',
      'ERR_WALLET_DUPLICATE_USERNAME',
      { attributes: { delegate: delegate('alice') } },
    ],
    ['a negative nonce', 'ERR_WALLET_INVALID_VALUE', { nonce: -1n }],
    ['a malformed public key', 'ERR_WALLET_INVALID_VALUE', { publicKey: 'xyz' }],
    ['a number balance', 'ERR_WALLET_INVALID_VALUE', { balance: 5 as unknown as bigint }],
  ])('refuses %s with %s and changes nothing', (_name, code, change) => {
    const repository = new WalletRepository();
    repository.update('DA', { publicKey: KEY_A, attributes: { delegate: delegate('alice') } });
    repository.update('DB', { balance: 1n });
    let error: unknown;
    try {
      repository.update('DB', change);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WalletError);
    expect((error as WalletError).code).toBe(code);
    expect(repository.get('DB')).toEqual({ address: 'DB', balance: 1n, nonce: 0n, attributes: {} });
  });

  it('keeps the public key a wallet first signed with', () => {
    const repository = new WalletRepository();
    repository.update('DA', { publicKey: KEY_A });
    expect(() => repository.update('DA', { publicKey: KEY_B })).toThrow(/keeps the public key/);
  });

  it('rolls back nested checkpoints exactly, including wallets the changes created', () => {
    const repository = new WalletRepository();
    repository.update('DA', { balance: 100n, attributes: { delegate: delegate('alice', 100n) } });
    const before = repository.get('DA');
    const block = repository.checkpoint();
    repository.update('DA', { balance: 60n });
    repository.update('DB', { balance: 40n, publicKey: KEY_B });
    const transaction = repository.checkpoint();
    repository.update('DA', { attributes: { delegate: undefined } });
    repository.rollback(transaction);
    expect(repository.byUsername('alice')?.balance).toBe(60n);
    repository.rollback(block);
    expect(repository.get('DA')).toBe(before);
    expect(repository.has('DB')).toBe(false);
    expect(repository.byPublicKey(KEY_B)).toBeUndefined();
    expect(repository.index('balance').size).toBe(1);
  });

  it('names each wallet changed since a checkpoint once, nested changes included', () => {
    const repository = new WalletRepository();
    repository.update('DA', { balance: 1n });
    const block = repository.checkpoint();
    repository.update('DB', { balance: 2n });
    repository.update('DA', { balance: 3n });
    const transaction = repository.checkpoint();
    repository.update('DB', { balance: 4n });
    repository.update('DC', { balance: 5n });
    repository.release(transaction);
    expect(repository.changedSince(block).sort()).toEqual(['DA', 'DB', 'DC']);
    repository.release(block);
  });

  it('keeps released changes and refuses to close checkpoints out of order', () => {
    const repository = new WalletRepository();
    const outer = repository.checkpoint();
    const inner = repository.checkpoint();
    repository.update('DA', { balance: 1n });
    expect(() => repository.release(outer)).toThrow(WalletError);
    repository.release(inner);
    repository.release(outer);
    expect(repository.get('DA')?.balance).toBe(1n);
  });

  it('rebuilds deferred indexes in the order live ones would hold, and refuses queries until then', () => {
    const live = new WalletRepository();
    const replayed = new WalletRepository();
    const resume = replayed.deferIndexes(['balance', 'nonce']);
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647);
    for (let step = 0; step < 2_000; step++) {
      const address = `D${random() % 300}`;
      const change = { balance: BigInt(random() % 1_000), nonce: BigInt(step) };
      for (const repository of [live, replayed]) {
        const checkpoint = repository.checkpoint();
        repository.update(address, change);
        if (step % 7 === 0) repository.rollback(checkpoint);
        else repository.release(checkpoint);
      }
    }
    expect(() => replayed.index('balance')).toThrow(WalletError);
    expect(replayed.index('address').size).toBe(live.index('address').size);
    resume();
    for (const path of ['balance', 'nonce']) {
      const order = (repository: WalletRepository) =>
        [...repository.index(path).scan(undefined, undefined, true)].map((w) => w.address);
      expect(order(replayed)).toEqual(order(live));
    }
  });

  it('loads many wallets at once, refusing the whole batch on a duplicate', () => {
    const repository = new WalletRepository();
    repository.load([
      { address: 'DA', balance: 5n, publicKey: KEY_A },
      { address: 'DB', balance: 7n, attributes: { delegate: delegate('bob') } },
    ]);
    expect(repository.byPublicKey(KEY_A)?.balance).toBe(5n);
    expect(repository.byUsername('bob')?.address).toBe('DB');
    expect(() =>
      repository.load([
        { address: 'DC', balance: 1n },
        { address: 'DD', publicKey: KEY_A },
      ]),
    ).toThrow(WalletError);
    expect(repository.has('DC')).toBe(false);
    expect(repository.size).toBe(2);
  });

  it('loads with its indexes left for later: built on first use or one by one, as a load with them would hold them, changes since included', () => {
    const wallets = Array.from({ length: 200 }, (_, i) => ({
      address: `D${(i * 7919) % 1000}`,
      balance: BigInt((i * 31) % 97),
      nonce: BigInt(i % 5),
      ...(i % 50 === 0 && { attributes: { delegate: delegate(`d${i}`, BigInt(i)) } }),
    }));
    const now = new WalletRepository();
    const later = new WalletRepository();
    now.load(wallets);
    later.load(wallets, { indexes: 'later' });
    expect(later.pendingIndexes).toBeGreaterThan(0);
    for (const repository of [now, later]) {
      repository.update('D7', { balance: 1_000n });
      repository.update('Dnew', { balance: 3n });
    }
    const order = (repository: WalletRepository, path: string) =>
      [...repository.index(path).scan(undefined, undefined, true)].map((w) => w.address);
    // Asked for before the backfill reached it: built then.
    expect(order(later, 'balance')).toEqual(order(now, 'balance'));
    const pending = later.pendingIndexes;
    expect(later.buildPendingIndex()).toBe(true);
    expect(later.pendingIndexes).toBe(pending - 1);
    while (later.buildPendingIndex());
    expect(later.pendingIndexes).toBe(0);
    for (const path of ['address', 'nonce', 'attributes.delegate.voteBalance']) {
      expect(order(later, path)).toEqual(order(now, path));
    }
  });
});
