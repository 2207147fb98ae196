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
    expect(missingLast).toEqual({ results: [items[2]], totalCount: 3 });
  });

  it('reads own properties only, never Object.prototype’s', () => {
    expect(readPath(items[0], 'timestamp.epoch')).toBe(5);
    for (const path of ['constructor', '__proto__', 'timestamp.toString', 'id.length']) {
      expect(readPath(items[0], path)).toBeUndefined();
    }
  });
});
