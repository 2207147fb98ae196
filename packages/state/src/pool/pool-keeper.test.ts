import { describe, expect, it } from 'vitest';
import type { TransactionData } from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { Writable } from 'node:stream';
import type { PoolEntry } from './pool-entry.js';
import { PoolJournal } from './pool-journal.js';
import { PoolKeeper } from './pool-keeper.js';

const entry = (id: string): PoolEntry => ({
  tx: { id } as TransactionData,
  id,
  sender: 'A',
  bytes: Buffer.from(id),
  feePerByte: 1,
  addedAt: 0,
});

/** A keeper over a journal whose storage logs each write and fails when told to. */
function keeperOverStorage() {
  const writes: string[] = [];
  const warnings: string[] = [];
  let failing = false;
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      warnings.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
      done();
    },
  });
  const logger = createLogger({ level: 'warn', out, pretty: false });
  const poolStorage = {
    save: async (added: readonly { id: string }[], removed: readonly string[] = []) => {
      writes.push(`+${added.map((row) => row.id).join(',')} -${removed.join(',')}`);
      if (failing) throw new Error('disk full');
    },
  };
  const keeper = new PoolKeeper({ logger, journal: new PoolJournal({ poolStorage, logger }) });
  return { keeper, writes, warnings, fail: (on: boolean) => (failing = on) };
}

describe('PoolKeeper', () => {
  it('writes a batch with the removals made before it, as one write', async () => {
    const { keeper, writes } = keeperOverStorage();
    keeper.removed('x');
    keeper.removed('y');
    await keeper.keep([entry('a'), entry('b')]);
    keeper.removed('a');
    keeper.forgetRemoved();
    await keeper.flush();
    expect(writes).toEqual(['+a,b -x,y', '+ -a']);
  });

  it('rejects when storage did not take the batch, and deletes its removals again', async () => {
    const { keeper, writes, fail } = keeperOverStorage();
    keeper.removed('x');
    fail(true);
    await expect(keeper.keep([entry('a')])).rejects.toThrow('disk full');
    fail(false);
    await keeper.keep([entry('b')]);
    expect(writes).toEqual(['+a -x', '+ -x', '+b -']);
  });

  it('rewrites the pool after a revert; a failure there is logged, not thrown', async () => {
    const { keeper, writes, warnings, fail } = keeperOverStorage();
    keeper.removed('a');
    fail(true);
    await keeper.rewrite([entry('r'), entry('a')]);
    expect(writes).toEqual(['+r,a -a']);
    expect(warnings).toEqual([
      'Pool not saved after a revert; the next start re-checks what storage holds',
    ]);
  });

  it('does nothing without a journal: the pool lives in memory', async () => {
    const keeper = new PoolKeeper({ logger: createLogger({ level: 'fatal' }) });
    keeper.removed('a');
    await keeper.keep([entry('b')]);
    await keeper.rewrite([entry('c')]);
    keeper.forgetRemoved();
    await expect(keeper.flush()).resolves.toBeUndefined();
  });
});
