import { createLogger } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import type { PoolEntry } from './pool-entry.js';
import { PoolJournal } from './pool-journal.js';

const logger = createLogger({ level: 'fatal' });
const entry = (id: string): PoolEntry =>
  ({ id, tx: {}, sender: 'A', bytes: Buffer.from(id), feePerByte: 1, addedAt: 7 }) as PoolEntry;

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A storage whose writes finish only when the test lets them, logging the order they ran in. */
function slowStorage() {
  const log: string[] = [];
  const pending: (() => void)[] = [];
  const write = (line: string, fail = false) =>
    new Promise<void>((resolve, reject) => {
      log.push(line);
      pending.push(() => (fail ? reject(new Error(`${line} failed`)) : resolve()));
    });
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
      save: (
        added: readonly { id: string; addedAt: number }[],
        removed: readonly string[] = [],
      ) => {
        const fail = failNext;
        failNext = false;
        return write(`save +${added.map((tx) => tx.id).join(',')} -${removed.join(',')}`, fail);
      },
      remove: (ids: readonly string[]) => write(`remove ${ids.join(',')}`),
    },
  };
}

describe('PoolJournal', () => {
  it('writes in the order of the changes, one at a time, removals joining while they wait', async () => {
    const storage = slowStorage();
    const journal = new PoolJournal({ poolStorage: storage.poolStorage, logger });
    const added = journal.record([entry('a'), entry('b')], []);
    journal.forget(['a']);
    journal.forget(['b']);
    const readded = journal.record([entry('a')], ['x']);
    journal.forget(['a']);
    await settle();
    expect(storage.log).toEqual(['save +a,b -']);
    await storage.finishOne();
    await added;
    expect(storage.log).toEqual(['save +a,b -', 'remove a,b']);
    // The running removal is closed: a later one waits behind the next addition.
    await storage.finishOne();
    await storage.finishOne();
    await readded;
    await storage.finishOne();
    await journal.flush();
    expect(storage.log).toEqual(['save +a,b -', 'remove a,b', 'save +a -x', 'remove a']);
  });

  it('rejects a failed addition to its caller and goes on with the next writes', async () => {
    const storage = slowStorage();
    const journal = new PoolJournal({ poolStorage: storage.poolStorage, logger });
    storage.failNextWrite();
    const failed = journal.record([entry('a')], []);
    const next = journal.record([entry('b')], []);
    await storage.finishOne();
    await expect(failed).rejects.toThrow('save +a - failed');
    await storage.finishOne();
    await expect(next).resolves.toBeUndefined();
  });
});
