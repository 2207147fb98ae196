import type { FieldCatalog, FieldType, FieldValue } from './fields.js';
import { ownEntry } from './own-entry.js';
import type { FieldCondition, Ordering, ResourceQuery } from './resource-query.js';

export interface InMemoryPage<T> {
  readonly results: readonly T[];
  readonly totalCount: number;
}

/**
 * Filters, orders and pages resources held in memory (a few, such as the open HTLC locks) by a
 * parsed index query, reading each field at its dotted path in the resource's JSON. `tieBreak`
 * is a unique field that keeps pages stable when the ordered fields are equal.
 */
export function searchInMemory<T extends object>(
  items: readonly T[],
  query: ResourceQuery,
  catalog: FieldCatalog,
  tieBreak: string,
): InMemoryPage<T> {
  const value = (item: T, field: string): FieldValue | undefined => {
    const type = ownEntry(catalog, field)?.type;
    return type === undefined ? undefined : typed(type, readPath(item, field));
  };
  const matched = items.filter((item) =>
    query.conditions.every((condition) => matches(value(item, condition.field), condition)),
  );
  const orderings: readonly Ordering[] = [...query.orderBy, { field: tieBreak, direction: 'asc' }];
  matched.sort((a, b) => {
    for (const { field, direction } of orderings) {
      const order = compare(value(a, field), value(b, field));
      if (order !== 0) return direction === 'desc' ? -order : order;
    }
    return 0;
  });
  return {
    results: matched.slice(query.offset, query.offset + query.limit),
    totalCount: matched.length,
  };
}

/** The value at a dotted path, through own properties only (never Object.prototype's). */
export function readPath(source: unknown, path: string): unknown {
  let current = source;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A resource value as the query parser types a parameter of the field: amounts as bigint. */
function typed(type: FieldType, raw: unknown): FieldValue | undefined {
  if (raw === undefined || raw === null) return undefined;
  switch (type) {
    case 'amount':
      return typeof raw === 'string' || typeof raw === 'bigint' ? BigInt(raw) : undefined;
    case 'integer':
    case 'number':
      return typeof raw === 'number' ? raw : undefined;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : undefined;
    case 'string':
      return typeof raw === 'string' ? raw : undefined;
  }
}

function matches(value: FieldValue | undefined, condition: FieldCondition): boolean {
  if (value === undefined) return false;
  if (condition.kind === 'in') return condition.values.some((wanted) => wanted === value);
  return (
    (condition.from === undefined || value >= condition.from) &&
    (condition.to === undefined || value <= condition.to)
  );
}

/** Values of one field in order; a missing value after every present one, as in the indexes. */
function compare(a: FieldValue | undefined, b: FieldValue | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
