import { describe, expect, it } from 'vitest';
import type { FieldCatalog } from './fields.js';
import { readPath, searchInMemory } from './in-memory-search.js';

const catalog: FieldCatalog = {
  id: { type: 'string' },
  amount: { type: 'amount' },
  'timestamp.epoch': { type: 'integer' },
  note: { type: 'string' },
};
const items = [
  { id: 'a', amount: '30000000000000000001', timestamp: { epoch: 5 }, note: 'x' },
  { id: 'b', amount: '7', timestamp: { epoch: 9 } },
  { id: 'c', amount: '7', timestamp: { epoch: 1 }, note: 'y' },
];
const query = (changes: object) => ({
  conditions: [],
  orderBy: [],
  offset: 0,
  limit: 100,
  page: 1,
  ...changes,
});
const ids = (page: { results: readonly { id: string }[] }) => page.results.map((item) => item.id);

describe('searchInMemory', () => {
  it('compares amounts as integers, ties broken by the unique field', () => {
    const ordered = searchInMemory(
      items,
      query({ orderBy: [{ field: 'amount', direction: 'desc' }] }),
      catalog,
      'id',
    );
    expect(ids(ordered)).toEqual(['a', 'b', 'c']);
    const range = searchInMemory(
      items,
      query({ conditions: [{ kind: 'range', field: 'amount', from: 8n }] }),
      catalog,
      'id',
    );
    expect(ids(range)).toEqual(['a']);
  });

  it('filters by nested paths, puts missing values last and pages with the exact total', () => {
    const page = searchInMemory(
      items,
      query({
        conditions: [{ kind: 'range', field: 'timestamp.epoch', to: 8 }],
        orderBy: [{ field: 'note', direction: 'asc' }],
      }),
      catalog,
      'id',
    );
    expect(ids(page)).toEqual(['a', 'c']);
    const missingLast = searchInMemory(
      items,
      query({ orderBy: [{ field: 'note', direction: 'asc' }], offset: 1, limit: 1 }),
      catalog,
      'id',
    );
    expect(missingLast).toEqual({ results: [items[2]], totalCount: 3, next: ['y', 'c'] });
  });

  it('walks any order by cursor, ties and missing values included, as offset pages do', () => {
    const many = Array.from({ length: 23 }, (_, n) => ({
      id: `i${String(n).padStart(2, '0')}`,
      amount: String(n % 4),
      timestamp: { epoch: n % 3 },
      ...(n % 5 !== 0 && { note: `n${n % 2}` }),
      done: n % 2 === 0,
    }));
    const withDone: FieldCatalog = { ...catalog, done: { type: 'boolean' } };
    const orders = [
      [{ field: 'amount', direction: 'desc' }],
      [
        { field: 'note', direction: 'asc' },
        { field: 'timestamp.epoch', direction: 'desc' },
      ],
      [{ field: 'done', direction: 'asc' }],
      [],
    ] as const;
    for (const orderBy of orders) {
      const byOffset = searchInMemory(many, query({ orderBy, limit: 100 }), withDone, 'id');
      const walked: string[] = [];
      let after: readonly (string | number | null)[] | undefined;
      for (let pages = 0; pages < 10; pages += 1) {
        const page = searchInMemory(
          many,
          query({ orderBy, limit: 5, ...(after && { after }) }),
          withDone,
          'id',
        );
        walked.push(...ids(page));
        expect(page.totalCount).toBe(23);
        // Only a full page names a next one; the walk ends on the short one.
        expect(page.next === undefined).toBe(page.results.length < 5);
        if (page.next === undefined) break;
        // A cursor travels as JSON: it must survive the round trip.
        after = JSON.parse(JSON.stringify(page.next)) as (string | number | null)[];
      }
      expect(walked).toEqual(ids(byOffset));
    }
  });

  it('refuses a cursor of another order, naming cursor', () => {
    const first = searchInMemory(
      items,
      query({ orderBy: [{ field: 'amount', direction: 'desc' }], limit: 1 }),
      catalog,
      'id',
    );
    expect(first.next).toEqual(['30000000000000000001', 'a']);
    const refused = (orderBy: object[], after: readonly (string | number | null)[]) => () =>
      searchInMemory(items, query({ orderBy, after }), catalog, 'id');
    const message = /^"cursor" does not belong to this order/;
    expect(refused([], first.next as string[])).toThrow(message);
    expect(refused([{ field: 'timestamp.epoch', direction: 'asc' }], ['x', 'a'])).toThrow(message);
    expect(refused([{ field: 'amount', direction: 'asc' }], ['-1', 'a'])).toThrow(message);
    expect(refused([{ field: 'amount', direction: 'asc' }], [7, 'a'])).toThrow(message);
  });

  it('reads own properties only, never Object.prototype’s', () => {
    expect(readPath(items[0], 'timestamp.epoch')).toBe(5);
    for (const path of ['constructor', '__proto__', 'timestamp.toString', 'id.length']) {
      expect(readPath(items[0], path)).toBeUndefined();
    }
  });
});
