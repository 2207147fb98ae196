import { createLogger } from '@lni/kernel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { IndexBackfill } from './index-backfill.js';

const logger = createLogger({ level: 'fatal' });

function loadedLazily(): WalletRepository {
  const wallets = new WalletRepository();
  wallets.load(
    Array.from({ length: 50 }, (_, i) => ({ address: `D${i}`, balance: BigInt(50 - i) })),
    { indexes: 'later' },
  );
  return wallets;
}

describe('IndexBackfill', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('builds every pending index a moment after start, not during it', async () => {
    vi.useFakeTimers();
    const wallets = loadedLazily();
    const pending = wallets.pendingIndexes;
    new IndexBackfill(wallets, 2_000).start(logger);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(wallets.pendingIndexes).toBe(pending);
    await vi.advanceTimersByTimeAsync(200);
    expect(wallets.pendingIndexes).toBe(0);
    const byBalance = [...wallets.index('balance').scan(undefined, undefined, false)];
    expect(byBalance.map((w) => w.balance)).toEqual(
      Array.from({ length: 50 }, (_, i) => BigInt(i + 1)),
    );
  });

  it('builds nothing once stopped', async () => {
    vi.useFakeTimers();
    const wallets = loadedLazily();
    const pending = wallets.pendingIndexes;
    const backfill = new IndexBackfill(wallets, 2_000);
    backfill.start(logger);
    backfill.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(wallets.pendingIndexes).toBe(pending);
  });
});
