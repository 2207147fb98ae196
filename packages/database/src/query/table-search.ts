import type { EntityManager } from 'typeorm';
import type { DatabaseConnection } from '../connection/database.js';
import { SearchTimeoutError } from '../errors.js';
import type { Scalar, SearchPage, SearchQuery } from './criteria.js';
import { costlySearchGateOf, searchGateOf, type SearchGate } from './search-gate.js';
import { pairedPartyTotal, partyCondition } from './parties.js';
import { preparedQuery } from './prepared.js';
import {
  binder,
  compileSearch,
  type Bind,
  type CompiledQuery,
  type CountPlan,
  type OrderTerm,
} from './query-compiler.js';
import type { TableSpec } from './table-specs.js';

/**
 * Rows an exact count may visit (or index probes it may make) before the total is answered as
 * the planner's estimate, flagged `totalCountIsEstimate`. Kept totals (types, blocks of a
 * generator, an address, a sender, a recipient) are exact at any size.
 */
export const COUNT_BUDGET = 100_000;

/**
 * Runs compiled searches on one table: a page of rows and its total, both from one snapshot.
 */
export class TableSearch<Row, Result> {
  constructor(
    private readonly database: DatabaseConnection,
    private readonly spec: TableSpec,
    private readonly columns: string,
    private readonly fromRow: (row: Row) => Result,
    private readonly countBudget = COUNT_BUDGET,
    private readonly timeoutMs = 2_000,
    poolSize = 10,
  ) {
    this.gate = searchGateOf(database, poolSize);
    this.costlyGate = costlySearchGateOf(database);
  }

  private readonly gate: SearchGate;
  private readonly costlyGate: SearchGate;

  async search(query: SearchQuery): Promise<SearchPage<Result>> {
    const compiled = compileSearch(this.spec, query);
    const run = () => this.gate.run(() => this.run(compiled, query), this.timeoutMs);
    try {
      return await (isCostly(compiled, query) ? this.costlyGate.run(run, this.timeoutMs) : run());
    } catch (error) {
      // query_canceled: the statement timeout fired (pg's error, bare from a prepared
      // statement, or wrapped by TypeORM).
      const failed = error as { code?: unknown; driverError?: { code?: unknown } };
      if ((failed.driverError?.code ?? failed.code) === '57014') {
        throw new SearchTimeoutError(this.timeoutMs);
      }
      throw error;
    }
  }

  private run(compiled: CompiledQuery, query: SearchQuery): Promise<SearchPage<Result>> {
    const { count } = compiled;
    return count.kind === 'bounded'
      ? this.runCounted(compiled, query, count)
      : this.runAsOneStatement(compiled, query, count);
  }

  /**
   * A search whose total is kept (a sum of kept totals, or the parties' totals): the page and
   * its total are one statement, so one round trip and one snapshot. Bounded by the time
   * budget: past it PostgreSQL cancels the search rather than hold a connection and a core.
   */
  private async runAsOneStatement(
    compiled: CompiledQuery,
    query: SearchQuery,
    count: Exclude<CountPlan, { kind: 'bounded' }>,
  ): Promise<SearchPage<Result>> {
    const { sql, params, bind } = this.pageStatement(compiled, query);
    // A scalar subquery: PostgreSQL works it out once per statement, not once per row. As text,
    // which pg hands over as it is: every row carries it, and parsing it as an array at each
    // row cost a fifth of reading a page of 100 narrow rows.
    const total = `(SELECT ${this.totalExpression(count, bind)})::text AS lni_total`;
    // A party page is index range reads whatever the parties: one plan serves every request.
    const rows = await this.database.readStatement<Row & TotalColumn>(
      this.timeoutMs,
      sql(total),
      params,
      { genericPlan: compiled.partyPage !== undefined },
    );
    const first = rows[0];
    return this.pageOf(compiled, query, rows, async () => {
      if (first !== undefined) return totalOf(first.lni_total);
      // An empty page past the end still tells the total: the same expression, alone (a
      // snapshot of its own, with no rows to disagree with).
      const alone: unknown[] = [];
      const [row] = await this.database.readStatement<TotalColumn>(
        this.timeoutMs,
        `SELECT (SELECT ${this.totalExpression(count, binder(alone))})::text AS lni_total`,
        alone,
      );
      return totalOf(row?.lni_total);
    });
  }

  /**
   * A search whose total is counted row by row: the page, then (when it is full) the bounded
   * count, in one repeatable-read snapshot so that both describe the same state of the chain.
   */
  private runCounted(
    compiled: CompiledQuery,
    query: SearchQuery,
    count: Extract<CountPlan, { kind: 'bounded' }>,
  ): Promise<SearchPage<Result>> {
    return this.database.readSnapshot(this.timeoutMs, async (manager) => {
      const { sql, params } = this.pageStatement(compiled, query);
      const rows = await preparedQuery<Row>(manager, sql(''), params);
      return this.pageOf(compiled, query, rows, () =>
        this.boundedCount(manager, count.where, count.params),
      );
    });
  }

  /** The page and its cursor; `total` is asked only when the page does not tell it. */
  private async pageOf(
    compiled: CompiledQuery,
    query: SearchQuery,
    rows: Row[],
    total: () => Promise<Total>,
  ): Promise<SearchPage<Result>> {
    const results = rows.map(this.fromRow);
    const last = rows.at(-1);
    const next =
      last !== undefined && rows.length === query.limit
        ? compiled.orderTerms.map((term) => orderValue(term, last as Record<string, unknown>))
        : undefined;
    // A page that is not full is the last one: the total is where it ends, without counting.
    if (
      query.after === undefined &&
      results.length < query.limit &&
      (results.length > 0 || query.offset === 0)
    ) {
      return { results, totalCount: query.offset + results.length };
    }
    const { count, estimate } = await total();
    return {
      results,
      totalCount: count,
      ...(estimate && { totalCountIsEstimate: true }),
      ...(next && { next }),
    };
  }

  /**
   * The page's statement, given the extra columns to select (the total, or none), with its
   * parameters; `bind` adds more parameters after the page's own.
   */
  private pageStatement(
    compiled: CompiledQuery,
    query: SearchQuery,
  ): { sql: (extra: string) => string; params: unknown[]; bind: Bind } {
    const { table } = this.spec;
    const columns = (extra: string) => (extra === '' ? this.columns : `${this.columns}, ${extra}`);
    if (compiled.partyPage) {
      // Its own parameters: the compiled filter's would go unused, which PostgreSQL refuses.
      const params: unknown[] = [];
      const bind = binder(params);
      const page = partyPageSql(table, compiled.partyPage, query, bind);
      return { sql: (extra) => page(columns(extra)), params, bind };
    }
    const params = [...compiled.params];
    const bind = binder(params);
    // OFFSET 0 keeps PostgreSQL from merging the subquery into the ordered outer query, so it
    // finds the matches through their indexes and sorts only those (streaming, top-N).
    const from = compiled.matchFirst
      ? `(SELECT * FROM ${table} WHERE ${compiled.where} OFFSET 0) AS matched`
      : `${table} WHERE ${compiled.where}`;
    return {
      sql: (extra) =>
        `SELECT ${columns(extra)} FROM ${from} ORDER BY ${compiled.orderBy} ${compiled.limitOffset}`,
      params,
      bind,
    };
  }

  /** A kept total as `{count, estimate}` (estimate 1 when the overlap budget stopped it). */
  private totalExpression(count: Exclude<CountPlan, { kind: 'bounded' }>, bind: Bind): string {
    if (count.kind === 'sum') return `ARRAY[(${count.sql(bind)}), 0]::bigint[]`;
    const paired = pairedPartyTotal(count.terms, this.countBudget, bind);
    if (paired !== undefined) return paired;
    return `lni_party_count(${bind(
      count.terms.map((term) => term.party),
      'text[]',
    )}, ${bind(
      count.terms.map((term) => term.roles),
      'integer[]',
    )}, ${bind(this.countBudget, 'bigint')})`;
  }

  /** Counts up to the budget; past it, answers the planner's estimate (at least the budget). */
  private async boundedCount(
    manager: EntityManager,
    where: string,
    params: unknown[],
  ): Promise<Total> {
    const { table } = this.spec;
    const [row] = await preparedQuery<{ count: string }>(
      manager,
      `SELECT count(*) AS count FROM (SELECT 1 FROM ${table} WHERE ${where} LIMIT ${this.countBudget + 1}) AS bounded`,
      params,
    );
    const count = Number(row?.count ?? 0);
    if (count <= this.countBudget) return { count, estimate: false };
    const [plan] = (await manager.query(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} WHERE ${where}`,
      params,
    )) as { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[];
    const estimated = Math.round(plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
    return { count: Math.max(estimated, count), estimate: true };
  }
}

/** A total and whether it is an estimate (a budget stopped the exact count). */
interface Total {
  readonly count: number;
  readonly estimate: boolean;
}

/** The column a one-statement search states its total in: `{count,estimate}`, an array's text. */
interface TotalColumn {
  readonly lni_total: string | null;
}

function totalOf(column: string | null | undefined): Total {
  const [count, estimate] = (column ?? '{0,0}').slice(1, -1).split(',');
  return { count: Number(count ?? 0), estimate: estimate === '1' };
}

/**
 * A page of the transactions of some parties in chain order: each party's index range read in
 * order up to the page's end, merged, duplicates (a transaction between two of them) dropped,
 * then only the page's rows fetched. Returns the statement given the columns to select.
 */
function partyPageSql(
  table: string,
  { terms, direction, after }: NonNullable<CompiledQuery['partyPage']>,
  { limit, offset }: SearchQuery,
  bind: Bind,
): (columns: string) => string {
  const order = `block_height ${direction}, sequence ${direction}`;
  if (terms.length === 0) return (columns) => `SELECT ${columns} FROM ${table} WHERE FALSE`;
  const reach = bind(offset + limit, 'bigint');
  const beyond = after
    ? ` AND (block_height, sequence) ${direction === 'DESC' ? '<' : '>'} (${bind(after[0], 'integer')}, ${bind(after[1], 'smallint')})`
    : '';
  const ranges = terms.map(
    (term) =>
      `(SELECT block_height, sequence FROM transaction_parties
        WHERE ${partyCondition([term], bind)}${beyond} ORDER BY ${order} LIMIT ${reach})`,
  );
  const page = `
    JOIN (
      SELECT DISTINCT block_height, sequence FROM (${ranges.join(' UNION ALL ')}) AS touched
      ORDER BY ${order} LIMIT ${bind(limit, 'bigint')} OFFSET ${bind(offset, 'bigint')}
    ) AS page USING (block_height, sequence)
    ORDER BY ${order}`;
  return (columns) => `SELECT ${columns} FROM ${table} ${page}`;
}

/** Offsets beyond this walk so many index entries that the search counts as costly. */
const COSTLY_OFFSET = 10_000;

/**
 * Whether a search's cost grows with the data: a total that is counted row by row (kept totals
 * and parties' totals are probes), or a deep offset. Cursor pages and kept totals are cheap.
 */
function isCostly(compiled: CompiledQuery, query: SearchQuery): boolean {
  return compiled.count.kind === 'bounded' || query.offset > COSTLY_OFFSET;
}

/** The value a row has for an order term, as a cursor carries it. */
function orderValue(term: OrderTerm, row: Record<string, unknown>): Scalar {
  if ('column' in term.source) {
    const value = row[term.source.column];
    if (value === null || value === undefined) return null;
    return typeof value === 'number' || typeof value === 'string' ? value : String(value);
  }
  let value: unknown = row.asset;
  for (const key of term.source.assetPath) {
    if (value === null || typeof value !== 'object') return null;
    value = Array.isArray(value)
      ? /^\d+$/.test(key)
        ? value[Number(key)]
        : undefined
      : (value as Record<string, unknown>)[key];
  }
  if (value === undefined) return null;
  // An asset value travels as its JSON text, compared as jsonb.
  return JSON.stringify(value);
}
