import { describe, expect, it } from 'vitest';
import type { TransactionData } from '@lni/crypto';
import type { PoolEntry } from './pool-entry.js';
import type { PoolRemovalReason } from '../contracts/pool.js';
import { PoolIndex } from './pool-index.js';
import { PoolRefusal } from './pool-rejection.js';

/** An entry of `size` bytes; the index reads only these fields. */
const entry = (id: string, sender: string, feePerByte: number, size = 100): PoolEntry => ({
  tx: { id } as TransactionData,
  id,
  sender,
  bytes: Buffer.alloc(size),
  feePerByte,
  addedAt: 1_000,
});

function indexWith(limits: { maxTransactions?: number; maxBytes?: number } = {}) {
  const removed: string[] = [];
  const index = new PoolIndex(
    { maxTransactions: limits.maxTransactions ?? 100, maxBytes: limits.maxBytes ?? 1_000_000 },
    (left, reason: PoolRemovalReason) => removed.push(`${left.id} ${reason}`),
  );
  return { index, removed };
}

describe('PoolIndex', () => {
  it('holds entries by id and by sender in the order added, counting their bytes', () => {
    const { index } = indexWith();
    const [a1, b1, a2] = [entry('a1', 'A', 5, 120), entry('b1', 'B', 9, 80), entry('a2', 'A', 7)];
    for (const e of [a1, b1, a2]) index.add(e as PoolEntry);
    expect(index.size).toBe(3);
    expect(index.bytes).toBe(300);
    expect(index.get('b1')).toBe(b1);
    expect(index.senderEntries('A')).toEqual([a1, a2]);
    expect([...index.senders()]).toEqual([[a1, a2], [b1]]);
    expect(index.best().map((e) => e.id)).toEqual(['b1', 'a2', 'a1']);
  });

  it('tells why each entry left, once, and forgets a sender with nothing left', () => {
    const { index, removed } = indexWith();
    const [a1, a2] = [entry('a1', 'A', 5), entry('a2', 'A', 5)];
    index.add(a1);
    index.add(a2);
    index.remove(a1, 'confirmed');
    index.remove(a1, 'dropped');
    expect(removed).toEqual(['a1 confirmed']);
    expect(index.senderEntries('A')).toEqual([a2]);
    index.remove(a2, 'dropped');
    expect([...index.senders()]).toEqual([]);
    expect(index.bytes).toBe(0);
  });

  it("when full, evicts the worst tail of another sender for a better entry, never the sender's own", () => {
    const { index, removed } = indexWith({ maxTransactions: 3 });
    for (const e of [entry('a1', 'A', 9), entry('a2', 'A', 2), entry('b1', 'B', 4)]) index.add(e);
    index.add(entry('b2', 'B', 3));
    expect(removed).toEqual(['a2 evicted']);
    // B's own tail (b2, 3) ranks below a newcomer of B's, but a sender never evicts itself.
    expect(() => index.add(entry('b3', 'B', 8))).toThrow(PoolRefusal);
    expect(index.size).toBe(3);
  });

  it('refuses an entry that ranks below every evictable tail, with pool.full', () => {
    const { index, removed } = indexWith({ maxTransactions: 2 });
    index.add(entry('a1', 'A', 5));
    index.add(entry('b1', 'B', 5));
    const refusal = (() => {
      try {
        index.add(entry('c1', 'C', 5));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toMatchObject({ reason: 'pool.full' });
    expect(removed).toEqual([]);
    expect(index.has('c1')).toBe(false);
  });

  it('evicts until the bytes fit too', () => {
    const { index, removed } = indexWith({ maxBytes: 500 });
    for (const e of [entry('a1', 'A', 1, 200), entry('b1', 'B', 2, 200)]) index.add(e);
    index.add(entry('c1', 'C', 9, 400));
    expect(removed).toEqual(['a1 evicted', 'b1 evicted']);
    expect(index.bytes).toBe(400);
  });
});
