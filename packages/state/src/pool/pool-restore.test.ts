import { describe, expect, it } from 'vitest';
import { serializeTransaction, type TransactionData } from '@lni/crypto';
import { addressOf, ALICE, BOB, transferOf } from '../blocks/__fixtures__/test-chain.js';
import { PoolJournal } from './pool-journal.js';
import { restoreTransactions, type SavedTransaction } from './pool-restore.js';
import { poolParts, quietLogger } from './__fixtures__/pool-world.js';

const bob = addressOf(BOB);
const saved = (tx: TransactionData, addedAt: number): SavedTransaction => ({
  id: tx.id as string,
  serialized: serializeTransaction(tx),
  addedAt,
});

/** Parts over a journal whose storage logs each write, and fails while `failing` is set. */
function restoring() {
  const writes: string[] = [];
  const storage = { failing: false };
  const poolStorage = {
    save: async (added: readonly { id: string }[], removed: readonly string[] = []) => {
      writes.push(`+${added.map((row) => row.id).join(',')} -${removed.join(',')}`);
      if (storage.failing) throw new Error('disk full');
    },
  };
  const journal = new PoolJournal({ poolStorage, logger: quietLogger });
  const parts = poolParts({ maxAgeSeconds: 60 }, { clock: () => 100_000, journal });
  const deps = { ...parts, maxAgeSeconds: 60 };
  return { parts, deps, writes, storage };
}

describe('restoreTransactions', () => {
  it('takes back, in the order given, what the chain still accepts; storage forgets the rest', async () => {
    const { parts, deps, writes } = restoring();
    const [a1, a2, a4] = [1n, 2n, 4n].map((n) => transferOf(ALICE, bob, 1n, n));
    const old = transferOf(BOB, bob, 1n, 1n);
    const result = await restoreTransactions(
      deps,
      [
        saved(a1!, 90_000),
        saved(a2!, 95_000),
        saved(a4!, 95_000),
        saved(old, 30_000),
        { id: 'broken', serialized: Buffer.from('ff00', 'hex'), addedAt: 99_000 },
      ],
      { inStorage: true },
    );
    expect(result).toEqual({
      restored: 2,
      dropped: [
        { id: old.id, reason: 'expired' },
        { id: 'broken', reason: 'malformed' },
        { id: a4?.id, reason: 'ERR_TX_NONCE' },
      ],
    });
    expect([...parts.index.entries()].map((e) => [e.id, e.addedAt])).toEqual([
      [a1?.id, 90_000],
      [a2?.id, 95_000],
    ]);
    await parts.keeper.flush();
    expect(writes).toEqual([`+ -${old.id},broken,${a4?.id}`]);
  });

  it('writes what it takes from elsewhere, and stops start-up when storage refuses it', async () => {
    const { parts, deps, writes, storage } = restoring();
    const a1 = transferOf(ALICE, bob, 1n, 1n);
    expect(await restoreTransactions(deps, [saved(a1, 99_000)], { inStorage: false })).toEqual({
      restored: 1,
      dropped: [],
    });
    expect(writes).toEqual([`+${a1.id} -`]);
    storage.failing = true;
    const a2 = transferOf(ALICE, bob, 1n, 2n);
    await expect(
      restoreTransactions(deps, [saved(a2, 99_000)], { inStorage: false }),
    ).rejects.toMatchObject({ code: 'ERR_POOL_STORAGE' });
    expect([...parts.index.entries()].map((e) => e.id)).toEqual([a1.id]);
  });
});
