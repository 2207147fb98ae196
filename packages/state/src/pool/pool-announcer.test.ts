import { describe, expect, it } from 'vitest';
import type { TransactionData } from '@lni/crypto';
import { PoolAnnouncer, type PoolListener } from './pool-announcer.js';
import type { PoolEntry } from './pool-entry.js';

const entry = (id: string): PoolEntry => ({
  tx: { id } as TransactionData,
  id,
  sender: 'A',
  bytes: Buffer.from(id),
  feePerByte: 1,
  addedAt: 0,
});

/** A listener writing down what it hears. */
function recorder(heard: string[], name: string): PoolListener {
  return {
    added: (entries, origin) => heard.push(`${name} added ${entries.map((e) => e.id)} ${origin}`),
    removed: (removals) =>
      heard.push(`${name} removed ${removals.map(({ entry: e, reason }) => `${e.id}:${reason}`)}`),
  };
}

describe('PoolAnnouncer', () => {
  it('tells every listener each batch taken, until it unsubscribes', () => {
    const announcer = new PoolAnnouncer();
    const heard: string[] = [];
    const stop = announcer.subscribe(recorder(heard, 'events'));
    announcer.subscribe(recorder(heard, 'p2p'));
    announcer.added([entry('a'), entry('b')], 'submitted');
    announcer.added([], 'peer');
    stop();
    announcer.added([entry('c')], 'restored');
    expect(heard).toEqual([
      'events added a,b submitted',
      'p2p added a,b submitted',
      'p2p added c restored',
    ]);
  });

  it('announces what left once the operation ends, except what came back or was never added', () => {
    const announcer = new PoolAnnouncer();
    const heard: string[] = [];
    announcer.subscribe(recorder(heard, 'events'));
    announcer.leaving(entry('a'), 'evicted');
    announcer.leaving(entry('b'), 'dropped');
    announcer.leaving(entry('c'), 'dropped');
    announcer.neverAnnounced('c');
    expect(heard).toEqual([]);
    announcer.settle((id) => id === 'b');
    announcer.settle(() => false);
    expect(heard).toEqual(['events removed a:evicted']);
  });
});
