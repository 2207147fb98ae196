import { createLogger } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import type { PoolEntry } from './pool-entry.js';
import { PoolJournal } from './pool-journal.js';

const logger = createLogger({ level: 'fatal' });
const entry = (id: string): PoolEntry =>
  ({ id, tx: {}, sender: 'A', bytes: Buffer.from(id), feePerByte: 1, addedAt: 7 }) as PoolEntry;
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A storage whose writes finish only when the test lets them, logging what each wrote. */
function slowStorage() {
  const log: string[] = [];
  const pending: (() => void)[] = [];
  let failNext = false;
  return {
    log,
    failNextWrite: () => (failNext = true),
    /** Lets the running write finish, once it has started. */
    finishOne: async () => {
      await settle();
      pending.shift()?.();
      await settle();
    },
    poolStorage: {
      save: (added: readonly { id: string }[], removed: readonly string[] = []) => {
        const line = `save +${added.map((tx) => tx.id).join(',')} -${removed.join(',')}`;
        const fail = failNext;
        failNext = false;
        log.push(line);
        return new Promise<void>((resolve, reject) =>
          pending.push(() => (fail ? reject(new Error(`${line} failed`)) : resolve())),
        );
      },
    },
  };
}

describe('PoolJournal', () => {
  it('writes one at a time, in order; what changes meanwhile goes together in the next write', async () => {
    const storage = slowStorage();
    const journal = new PoolJournal({ poolStorage: storage.poolStorage, logger });
    const first = journal.record([entry('a'), entry('b')], []);
    await settle();
    expect(storage.log).toEqual(['save +a,b -']);

    // While it runs: a and b leave, c comes, x is evicted for d, and c leaves again.
    journal.forget(['a', 'b']);
    const second = journal.record([entry('c')], []);
    const third = journal.record([entry('d')], ['x']);
    journal.forget(['c']);
    await storage.finishOne();
    await first;
    expect(storage.log).toEqual(['save +a,b -', 'save +d -a,b,x,c']);

    // An id removed then taken again (a revert) is deleted and inserted anew, at the end.
    journal.forget(['d']);
    const fourth = journal.record([entry('d')], []);
    await storage.finishOne();
    await Promise.all([second, third]);
    await storage.finishOne();
    await fourth;
    await journal.flush();
    expect(storage.log).toEqual(['save +a,b -', 'save +d -a,b,x,c', 'save +d -d']);
  });

  it('rejects the callers of a failed write and goes on with the next', async () => {
    const storage = slowStorage();
    const journal = new PoolJournal({ poolStorage: storage.poolStorage, logger });
    storage.failNextWrite();
    const failed = journal.record([entry('a')], []).catch((error: Error) => error.message);
    await settle();
    const next = journal.record([entry('b')], []);
    await storage.finishOne();
    expect(await failed).toBe('save +a - failed');
    await storage.finishOne();
    await expect(next).resolves.toBeUndefined();
    expect(storage.log).toEqual(['save +a -', 'save +b -']);
  });
});
