import Boom from '@hapi/boom';
import type { CursorValues } from '../pagination/cursor.js';
import { parseFieldValue, type FieldCatalog, type FieldType, type FieldValue } from './fields.js';
import { ownEntry } from './own-entry.js';
import type { FieldCondition, Ordering, ResourceQuery } from './resource-query.js';

export interface InMemoryPage<T> {
  readonly results: readonly T[];
  readonly totalCount: number;
  /** The order values of the last result of a full page, for the `next` link's cursor. */
  readonly next?: CursorValues;
}

/** An item's values in the order's fields (the unique field last); undefined where missing. */
type OrderKey = readonly (FieldValue | undefined)[];

/**
 * Filters, orders and pages resources held in memory (a few, such as the open HTLC locks) by a
 * parsed index query, reading each field at its dotted path in the resource's JSON. `tieBreak`
 * is a unique field that keeps pages stable when the ordered fields are equal, and ends every
 * cursor, so a cursor names one item and the page after it starts right past it.
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
  const orderings: readonly Ordering[] = [...query.orderBy, { field: tieBreak, direction: 'asc' }];
  const keyed = items
    .filter((item) =>
      query.conditions.every((condition) => matches(value(item, condition.field), condition)),
    )
    .map((item) => ({ item, key: orderings.map(({ field }) => value(item, field)) }));
  const byOrder = (a: OrderKey, b: OrderKey): number => {
    for (const [index, { direction }] of orderings.entries()) {
      const order = compare(a[index], b[index]);
      if (order !== 0) return direction === 'desc' ? -order : order;
    }
    return 0;
  };
  keyed.sort((a, b) => byOrder(a.key, b.key));
  let start = query.offset;
  if (query.after !== undefined) {
    const after = cursorKey(query.after, orderings, catalog);
    const past = keyed.findIndex(({ key }) => byOrder(key, after) > 0);
    start = past === -1 ? keyed.length : past;
  }
  const page = keyed.slice(start, start + query.limit);
  const last = page.at(-1);
  return {
    results: page.map(({ item }) => item),
    totalCount: keyed.length,
    ...(last !== undefined && page.length === query.limit && { next: last.key.map(cursorValue) }),
  };
}

/**
 * A value as a cursor carries it: amounts and booleans as their text in a query string (JSON
 * has no bigint), a missing value as null.
 */
function cursorValue(value: FieldValue | undefined): string | number | null {
  if (value === undefined) return null;
  return typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : value;
}

/** A cursor's values typed as the order's fields; 422 naming `cursor` when they cannot be. */
function cursorKey(
  after: CursorValues,
  orderings: readonly Ordering[],
  catalog: FieldCatalog,
): OrderKey {
  const refuse = (): never => {
    throw Boom.badData('"cursor" does not belong to this order (take it from meta.next)');
  };
  if (after.length !== orderings.length) return refuse();
  return orderings.map(({ field }, index) => {
    const raw = after[index] ?? null;
    if (raw === null) return undefined;
    const type = ownEntry(catalog, field)?.type;
    if (type === undefined) return refuse();
    // Amounts and booleans travel as their query-string text, numbers and strings as themselves.
    if (type !== 'amount' && type !== 'boolean') return typed(type, raw) ?? refuse();
    return (typeof raw === 'string' ? parseFieldValue(type, raw) : undefined) ?? refuse();
  });
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
