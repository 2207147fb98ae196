import type { EntityManager } from 'typeorm';
import type { DatabaseConnection } from '../connection/database.js';
import { SearchTimeoutError } from '../errors.js';
import type { Scalar, SearchPage, SearchQuery } from './criteria.js';
import { countParties, type Total } from './party-count.js';
import { costlySearchGateOf, searchGateOf, type SearchGate } from './search-gate.js';
import { partyCondition } from './parties.js';
import { preparedQuery } from './prepared.js';
import {
  compileSearch,
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
      // query_canceled: the statement timeout below fired (pg's error, bare from a prepared
      // statement, or wrapped by TypeORM).
      const failed = error as { code?: unknown; driverError?: { code?: unknown } };
      if ((failed.driverError?.code ?? failed.code) === '57014') {
        throw new SearchTimeoutError(this.timeoutMs);
      }
      throw error;
    }
  }

  private async run(compiled: CompiledQuery, query: SearchQuery): Promise<SearchPage<Result>> {
    // Repeatable read: the count and the page describe the same state of the chain. Bounded:
    // past the budget PostgreSQL cancels the search rather than hold a connection and a core.
    return this.database.readSnapshot(this.timeoutMs, async (manager) => {
      const rows = await this.page(manager, compiled, query);
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
      const total = await this.total(manager, compiled.count);
      return {
        results,
        totalCount: total.count,
        ...(total.estimate && { totalCountIsEstimate: true }),
        ...(next && { next }),
      };
    });
  }

  private async page(
    manager: EntityManager,
    compiled: CompiledQuery,
    query: SearchQuery,
  ): Promise<Row[]> {
    const { table } = this.spec;
    if (compiled.partyPage) return this.partyPage(manager, compiled.partyPage, query);
    // OFFSET 0 keeps PostgreSQL from merging the subquery into the ordered outer query, so it
    // finds the matches through their indexes and sorts only those (streaming, top-N).
    const sql = compiled.matchFirst
      ? `SELECT ${this.columns} FROM (SELECT * FROM ${table} WHERE ${compiled.where} OFFSET 0) AS matched`
      : `SELECT ${this.columns} FROM ${table} WHERE ${compiled.where}`;
    return preparedQuery<Row>(
      manager,
      `${sql} ORDER BY ${compiled.orderBy} ${compiled.limitOffset}`,
      compiled.params,
    );
  }

  /**
   * A page of the transactions of some parties in chain order: each party's index range read
   * in order up to the page's end, merged, duplicates (a transaction between two of them)
   * dropped, then only the page's rows fetched.
   */
  private async partyPage(
    manager: EntityManager,
    { terms, direction, after }: NonNullable<CompiledQuery['partyPage']>,
    { limit, offset }: SearchQuery,
  ): Promise<Row[]> {
    if (terms.length === 0) return [];
    const params: unknown[] = [];
    const bind = (value: unknown, cast?: string) => {
      params.push(value);
      return cast ? `$${params.length}::${cast}` : `$${params.length}`;
    };
    const order = `block_height ${direction}, sequence ${direction}`;
    const reach = bind(offset + limit, 'bigint');
    const beyond = after
      ? ` AND (block_height, sequence) ${direction === 'DESC' ? '<' : '>'} (${bind(after[0], 'integer')}, ${bind(after[1], 'smallint')})`
      : '';
    const ranges = terms.map(
      (term) =>
        `(SELECT block_height, sequence FROM transaction_parties
          WHERE ${partyCondition([term], bind)}${beyond} ORDER BY ${order} LIMIT ${reach})`,
    );
    const sql = `
      SELECT ${this.columns} FROM ${this.spec.table}
      JOIN (
        SELECT DISTINCT block_height, sequence FROM (${ranges.join(' UNION ALL ')}) AS touched
        ORDER BY ${order} LIMIT ${bind(limit, 'bigint')} OFFSET ${bind(offset, 'bigint')}
      ) AS page USING (block_height, sequence)
      ORDER BY ${order}`;
    return preparedQuery<Row>(manager, sql, params);
  }

  private async total(manager: EntityManager, plan: CountPlan): Promise<Total> {
    switch (plan.kind) {
      case 'sum': {
        const [row] = await preparedQuery<{ count: string }>(manager, plan.sql, plan.params);
        return { count: Number(row?.count ?? 0), estimate: false };
      }
      case 'parties':
        return countParties(manager, plan.terms, this.countBudget);
      case 'bounded':
        return this.boundedCount(manager, plan.where, plan.params);
    }
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
