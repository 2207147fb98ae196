// The in-memory engine's coercion: both ledgers refuse a value with the same words.
import { coerceValue, WalletQueryError, type FieldValue } from '@lni/state';
import type { WalletCondition, WalletSearch } from '@lni/state/contracts';
import { compareFieldValues, readCursor } from '@lni/state';
import { keysetCondition, type OrderKey } from './keyset.js';
import { sqlFieldOf, type SearchScope } from './search-fields.js';
import { SqlParameters } from './sql-parameters.js';
import { ROW_VERSION, WALLET_TEXT_COLUMNS } from './wallet-views.js';

/** A wallet search as one statement: the page's rows, each carrying the exact total. */
export interface CompiledSearch {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly keys: readonly OrderKey[];
  readonly limit: number;
  /**
   * The plan does not depend on the values (planIgnoresValues): the route's index reads the
   * page in order whatever they are. PostgreSQL, left to choose,
   * plans such a page at every run (a `LIMIT $n` is costed as a tenth of the table), and
   * planning costs about as much as running it.
   */
  readonly genericPlan: boolean;
}

const ADDRESS = 'address COLLATE "C"';

/**
 * What a compiled search answers: `versions`, one row of the total and `page`, the page's
 * addresses and row versions (see WalletViews) in order as one text, `address version ...`
 * (addresses and versions hold no space); or `rows`, a row per wallet of the page, each with
 * the total and the whole wallet (WalletTextRow), and a row of nulls but the total when the
 * page is empty. One text costs the node a third of what a hundred rows cost it to read.
 */
export type SearchShape = 'versions' | 'rows';

/**
 * Compiles a search of the `wallets` table: the conditions (AND; `in` is any of its values,
 * `range` inclusive), the order with ties by address in the first key's direction, and the page
 * by offset or after a cursor. Page and total are one statement, so they read one snapshot
 * (a hot standby may replay a block between two statements).
 */
export function compileWalletSearch(
  scope: SearchScope,
  search: WalletSearch,
  shape: SearchShape = 'versions',
): CompiledSearch {
  const offset = search.offset ?? 0;
  const limit = search.limit ?? 100;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new WalletQueryError('offset: expected a non-negative integer', 'offset');
  }
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new WalletQueryError('limit: expected a non-negative integer', 'limit');
  }
  const parameters = new SqlParameters();
  const filters = (search.conditions ?? []).map((condition) =>
    conditionSql(scope, condition, parameters),
  );
  if (scope === 'delegates') filters.unshift('delegate_username IS NOT NULL');
  const keys = orderKeys(scope, search);
  const where = filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';

  const pageFilters = [...filters];
  if (search.after !== undefined) {
    const position = readCursor(
      search.after,
      keys.map(({ sql }) => sql.field),
    );
    pageFilters.push(keysetCondition(keys, position, ADDRESS, parameters));
  }
  const pageWhere = pageFilters.length > 0 ? `WHERE ${pageFilters.join(' AND ')}` : '';
  const primaryDirection = (keys[0] as OrderKey).descending ? 'DESC' : 'ASC';
  const orderBy = [
    ...keys.map(({ sql, descending }) => `${sql.expression} ${descending ? 'DESC' : 'ASC'}`),
    `${ADDRESS} ${primaryDirection}`,
  ].join(', ');
  const limitParameter = parameters.add(limit, 'bigint');
  const offsetParameter = parameters.add(search.after === undefined ? offset : 0, 'bigint');
  // Every wallet, uncounted: the head row keeps the number, written with the rows.
  const total =
    filters.length === 0
      ? 'SELECT wallet_count AS total FROM state_head'
      : `SELECT count(*) AS total FROM wallets ${where}`;
  const limits = `LIMIT ${limitParameter} OFFSET ${offsetParameter}`;
  // The row number keeps the page's order through the aggregate; the index gives both in order.
  const text =
    shape === 'versions'
      ? `SELECT t.total::text AS total, (SELECT string_agg(p.address || ' ' || p.version, ' ' ` +
        `ORDER BY p.n) FROM (SELECT address, ${ROW_VERSION}, row_number() OVER (ORDER BY ` +
        `${orderBy}) AS n FROM wallets ${pageWhere} ORDER BY ${orderBy} ${limits}) p) AS page ` +
        `FROM (${total}) t`
      : `SELECT t.total::text AS total, w.* FROM (${total}) t LEFT JOIN LATERAL (` +
        `SELECT ${WALLET_TEXT_COLUMNS} FROM wallets ${pageWhere} ORDER BY ${orderBy} ${limits}) w ON true`;
  return {
    text,
    values: parameters.values,
    keys,
    limit,
    genericPlan: planIgnoresValues(scope, search.conditions ?? [], keys),
  };
}

/**
 * The fields that lead a route index of each scope (state's wallet-search-indexes migration),
 * with the address after them for ties: a range or an equality on one of them, ordered by it,
 * is read from that index starting at the bound, in order, whatever the bounds.
 */
const INDEX_LEADS: Readonly<Record<SearchScope, readonly string[]>> = {
  wallets: ['balance', 'address'],
  delegates: [
    'attributes.delegate.rank',
    'attributes.delegate.voteBalance',
    'attributes.delegate.username',
  ],
};

/**
 * An equality on the leading column of a route index whose next column is the order: read from
 * the value's entries, in order, whatever the value. The voters of a delegate: wallets_vote_c
 * (vote, balance, address).
 */
const INDEX_PREFIXES: readonly { readonly equal: string; readonly orderedBy: string }[] = [
  { equal: 'attributes.vote', orderedBy: 'balance' },
];

/**
 * A search whose best plan is the same for every value of its parameters, so planned once per
 * connection and read together with others of its text: no condition but the scope's (the
 * route's index read in order), or one condition on a field of a route index ordered as it is.
 */
function planIgnoresValues(
  scope: SearchScope,
  conditions: readonly WalletCondition[],
  keys: readonly OrderKey[],
): boolean {
  if (conditions.length === 0) return true;
  const [condition] = conditions;
  const [key] = keys;
  if (conditions.length !== 1 || keys.length !== 1 || !condition || !key) return false;
  const equality = condition.kind === 'in' && new Set(condition.values).size === 1;
  if (!equality && condition.kind !== 'range') return false;
  const field = sqlFieldOf(scope, condition.field, String(condition.field)).field.path;
  const ordered = key.sql.field.path;
  if (field === ordered) return INDEX_LEADS[scope].includes(field);
  return (
    equality &&
    scope === 'wallets' &&
    INDEX_PREFIXES.some(({ equal, orderedBy }) => field === equal && ordered === orderedBy)
  );
}

function orderKeys(scope: SearchScope, search: WalletSearch): OrderKey[] {
  const keys = (search.orderBy ?? []).map((ordering): OrderKey => {
    if (ordering.direction !== 'asc' && ordering.direction !== 'desc') {
      throw new WalletQueryError(
        `orderBy: direction of '${ordering.field}' must be asc or desc`,
        'orderBy',
      );
    }
    return {
      sql: sqlFieldOf(scope, ordering.field, 'orderBy'),
      descending: ordering.direction === 'desc',
    };
  });
  if (keys.length === 0)
    keys.push({ sql: sqlFieldOf('wallets', 'address', 'orderBy'), descending: false });
  return keys;
}

function conditionSql(
  scope: SearchScope,
  condition: WalletCondition,
  parameters: SqlParameters,
): string {
  const name = String(condition.field);
  const sql = sqlFieldOf(scope, condition.field, name);
  if (condition.kind === 'in') {
    if (!Array.isArray(condition.values) || condition.values.length === 0) {
      throw new WalletQueryError(`${name}: expected at least one value`, name);
    }
    const values = [...new Set(condition.values.map((v) => coerceValue(sql.field, v, name)))];
    if (values.length === 1)
      return `${sql.expression} = ${parameters.add(values[0] as FieldValue, sql.cast)}`;
    return `${sql.expression} = ANY(${parameters.add(values.sort(compareFieldValues), sql.cast)})`;
  }
  if (condition.kind !== 'range') {
    throw new WalletQueryError(`${name}: unknown condition kind`, name);
  }
  if (sql.field.type === 'string' || sql.field.type === 'boolean') {
    throw new WalletQueryError(`${name}: a range needs a numeric field`, name);
  }
  const from =
    condition.from === undefined ? undefined : coerceValue(sql.field, condition.from, name);
  const to = condition.to === undefined ? undefined : coerceValue(sql.field, condition.to, name);
  if (from !== undefined && to !== undefined && from > to) return 'false';
  const bounds = [`${sql.expression} IS NOT NULL`];
  if (from !== undefined) bounds.push(`${sql.expression} >= ${parameters.add(from, sql.cast)}`);
  if (to !== undefined) bounds.push(`${sql.expression} <= ${parameters.add(to, sql.cast)}`);
  return bounds.length > 1 ? bounds.slice(1).join(' AND ') : (bounds[0] as string);
}
