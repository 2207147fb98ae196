import { QueryCriteriaError } from '../errors.js';
import { assetPath, assetValue, containmentDocuments } from './asset-path.js';
import type { Criteria, OrderBy, Scalar, SearchQuery } from './criteria.js';
import type { ColumnSpec, TableSpec } from './table-specs.js';
import { checkText, columnValue, numericValue } from './values.js';

/** SQL text built only from the table spec; every caller value travels in `params`. */
export interface CompiledQuery {
  readonly where: string;
  readonly orderBy: string;
  readonly params: unknown[];
  /** Placeholders of limit and offset, appended after the filter parameters. */
  readonly limitOffset: string;
  /** The exact number of matching rows, from the kept totals where the criteria allow it. */
  readonly count: { readonly sql: string; readonly params: unknown[] };
  /**
   * Whether to find the matching rows before ordering them: criteria naming an address match
   * its few transactions, which the indexes of sender, recipient and payments find at once, but
   * PostgreSQL underrates the cost of testing the criteria row by row and rather walks an
   * ordered index through the whole table (2,000 matches among 1,000,000: 62 ms instead of 5).
   * The exact count visits every match anyway, so this never costs more than the count.
   */
  readonly matchFirst: boolean;
}

export const MAX_IN_VALUES = 10_000;
export const MAX_LIMIT = 10_000;
const MAX_DEPTH = 32;

const PG_TYPES = {
  text: 'varchar',
  'utf8-bytea': 'bytea',
  smallint: 'smallint',
  integer: 'integer',
  bigint: 'bigint',
} as const;

/** Compiles criteria, ordering and paging against one table into parameterised SQL. */
export function compileSearch(spec: TableSpec, query: SearchQuery): CompiledQuery {
  const params: unknown[] = [];
  const bind = binder(params);
  const where = query.criteria ? compileCriteria(spec, query.criteria, bind, 0) : 'TRUE';
  const count = compileCount(spec, query.criteria, where, [...params]);
  const orderBy = compileOrder(spec, query.orderBy ?? [], bind);
  const limit = pageNumber('limit', query.limit, 1, MAX_LIMIT);
  const offset = pageNumber('offset', query.offset, 0, Number.MAX_SAFE_INTEGER);
  const limitOffset = `LIMIT ${bind(limit)} OFFSET ${bind(offset)}`;
  const matchFirst = query.criteria !== undefined && namesAddress(query.criteria);
  return { where, orderBy, params, limitOffset, count, matchFirst };
}

function namesAddress(criteria: Criteria): boolean {
  if ('and' in criteria) return criteria.and.some(namesAddress);
  if ('or' in criteria) return criteria.or.some(namesAddress);
  return 'address' in criteria;
}

/**
 * Criteria on the grouped fields only are answered by summing the kept totals, compiled again
 * against that table (its columns have the same names); any other criteria count the rows.
 */
function compileCount(
  spec: TableSpec,
  criteria: Criteria | undefined,
  where: string,
  whereParams: unknown[],
): CompiledQuery['count'] {
  const { table, groupedBy } = spec.totals;
  if (criteria === undefined || onlyFields(criteria, groupedBy)) {
    const totalsSpec: TableSpec = {
      ...spec,
      table,
      columns: Object.fromEntries(groupedBy.map((field) => [field, spec.columns[field]!])),
      assetColumn: undefined,
      addressSearch: false,
    };
    const params: unknown[] = [];
    const bind = binder(params);
    const totalsWhere = criteria ? compileCriteria(totalsSpec, criteria, bind, 0) : 'TRUE';
    return {
      sql: `SELECT coalesce(sum(count), 0) AS count FROM ${table} WHERE ${totalsWhere}`,
      params,
    };
  }
  return { sql: `SELECT count(*) AS count FROM ${spec.table} WHERE ${where}`, params: whereParams };
}

function onlyFields(criteria: Criteria, fields: readonly string[]): boolean {
  if ('and' in criteria) return criteria.and.every((part) => onlyFields(part, fields));
  if ('or' in criteria) return criteria.or.every((part) => onlyFields(part, fields));
  return 'field' in criteria && fields.includes(criteria.field);
}

type Bind = (value: unknown, cast?: string) => string;

/** Appends each value to `params` and answers its placeholder. */
function binder(params: unknown[]): Bind {
  return (value, cast) => {
    params.push(value);
    return cast ? `$${params.length}::${cast}` : `$${params.length}`;
  };
}

function compileCriteria(spec: TableSpec, criteria: Criteria, bind: Bind, depth: number): string {
  if (depth > MAX_DEPTH) throw new QueryCriteriaError('criteria', 'nested too deeply');
  if ('and' in criteria || 'or' in criteria) {
    const [operator, parts] =
      'and' in criteria ? (['AND', criteria.and] as const) : (['OR', criteria.or] as const);
    if (!Array.isArray(parts))
      throw new QueryCriteriaError(operator.toLowerCase(), 'expected a list');
    if (parts.length === 0) return operator === 'AND' ? 'TRUE' : 'FALSE';
    return `(${parts.map((part) => compileCriteria(spec, part, bind, depth + 1)).join(` ${operator} `)})`;
  }
  if ('address' in criteria) return compileAddress(spec, criteria, bind);
  const { field } = criteria;
  if (typeof field !== 'string') throw new QueryCriteriaError('field', 'expected a field name');
  const path = spec.assetColumn ? assetPath(field) : undefined;
  if (path && spec.assetColumn) return compileAsset(spec.assetColumn, field, path, criteria, bind);
  // An own column only: `constructor` or `toString` must not read Object.prototype.
  const column = Object.hasOwn(spec.columns, field) ? spec.columns[field] : undefined;
  if (!column) throw new QueryCriteriaError(field, 'unknown field');
  return compileColumn(column, field, criteria, bind);
}

function compileColumn(column: ColumnSpec, field: string, criteria: Criteria, bind: Bind): string {
  const cast = PG_TYPES[column.type];
  if ('eq' in criteria) {
    if (criteria.eq === null) return `${column.column} IS NULL`;
    return `${column.column} = ${bind(columnValue(field, column.type, criteria.eq), cast)}`;
  }
  if ('in' in criteria) {
    const values = inList(field, criteria.in);
    const present = values.filter((value) => value !== null);
    const parts: string[] = [];
    if (present.length > 0) {
      const coerced = present.map((value) => columnValue(field, column.type, value));
      parts.push(`${column.column} = ANY(${bind(coerced, `${cast}[]`)})`);
    }
    if (present.length < values.length) parts.push(`${column.column} IS NULL`);
    return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
  }
  return rangeSql(field, criteria, (bound, operator) => {
    return `${column.column} ${operator} ${bind(columnValue(field, column.type, bound), cast)}`;
  });
}

function compileAsset(
  assetColumn: string,
  field: string,
  path: string[],
  criteria: Criteria,
  bind: Bind,
): string {
  if ('eq' in criteria) {
    const documents = containmentDocuments(path, assetValue(field, criteria.eq));
    return `(${documents.map((document) => `${assetColumn} @> ${bind(document, 'jsonb')}`).join(' OR ')})`;
  }
  if ('in' in criteria) {
    const values = inList(field, criteria.in);
    if (values.length === 0) return 'FALSE';
    const documents = values.flatMap((value) =>
      containmentDocuments(path, assetValue(field, value)),
    );
    return `${assetColumn} @> ANY(${bind(documents, 'jsonb[]')})`;
  }
  // Ranges compare numbers, which assets hold as JSON numbers or decimal strings.
  const text = `(${assetColumn} #>> ${bind(path, 'text[]')})`;
  const number = `(CASE WHEN ${text} ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ${text}::numeric END)`;
  return rangeSql(field, criteria, (bound, operator) => {
    return `${number} ${operator} ${bind(numericValue(field, bound), 'numeric')}`;
  });
}

function compileAddress(
  spec: TableSpec,
  criterion: { address: string; senderPublicKeys?: readonly string[] },
  bind: Bind,
): string {
  if (!spec.addressSearch || !spec.assetColumn) {
    throw new QueryCriteriaError('address', `not searchable in ${spec.table}`);
  }
  const address = checkText('address', criterion.address);
  const parts = [
    `recipient_id = ${bind(address, 'varchar')}`,
    // The expression of the payment recipients' own index (see its migration).
    `(${spec.assetColumn} -> 'payments') @> ${bind(JSON.stringify([{ recipientId: address }]), 'jsonb')}`,
  ];
  const keys = inList('senderPublicKeys', criterion.senderPublicKeys ?? []).map((key) =>
    checkText('senderPublicKeys', key),
  );
  if (keys.length > 0) parts.push(`sender_public_key = ANY(${bind(keys, 'varchar[]')})`);
  return `(${parts.join(' OR ')})`;
}

function rangeSql(
  field: string,
  criteria: Criteria,
  compare: (bound: Scalar, operator: '>=' | '<=') => string,
): string {
  const range = criteria as { from?: Scalar; to?: Scalar };
  const parts: string[] = [];
  if (range.from !== undefined && range.from !== null) parts.push(compare(range.from, '>='));
  if (range.to !== undefined && range.to !== null) parts.push(compare(range.to, '<='));
  if (parts.length === 0) {
    throw new QueryCriteriaError(field, 'expected eq, in, or a range with from and/or to');
  }
  return `(${parts.join(' AND ')})`;
}

function inList(field: string, values: unknown): readonly Scalar[] {
  if (!Array.isArray(values)) throw new QueryCriteriaError(field, 'expected a list of values');
  if (values.length > MAX_IN_VALUES) {
    throw new QueryCriteriaError(field, `at most ${MAX_IN_VALUES} values in a list`);
  }
  return values as Scalar[];
}

function compileOrder(spec: TableSpec, orderBy: readonly OrderBy[], bind: Bind): string {
  const terms: string[] = [];
  for (const { field, direction } of orderBy) {
    if (direction !== 'asc' && direction !== 'desc') {
      throw new QueryCriteriaError(field, 'order direction must be asc or desc');
    }
    const path = spec.assetColumn ? assetPath(field) : undefined;
    const expression =
      path && spec.assetColumn
        ? `${spec.assetColumn} #> ${bind(path, 'text[]')}`
        : Object.hasOwn(spec.columns, field)
          ? spec.columns[field]?.column
          : undefined;
    if (!expression) throw new QueryCriteriaError(field, 'cannot order by an unknown field');
    terms.push(`${expression} ${direction.toUpperCase()}`);
  }
  const defaults = orderBy.length === 0 ? spec.defaultOrder : [];
  for (const { column, direction } of defaults) terms.push(`${column} ${direction.toUpperCase()}`);
  const ordered = new Set(terms.map((term) => term.slice(0, term.lastIndexOf(' '))));
  const last = (
    orderBy.at(-1)?.direction ??
    spec.defaultOrder.at(-1)?.direction ??
    'desc'
  ).toUpperCase();
  for (const column of spec.tieBreaker) {
    if (!ordered.has(column)) terms.push(`${column} ${last}`);
  }
  return terms.join(', ');
}

function pageNumber(field: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new QueryCriteriaError(field, `expected an integer from ${min} to ${max}`);
  }
  return value;
}
