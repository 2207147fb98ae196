import type { DatabaseConnection } from '../connection/database.js';
import type { SearchPage, SearchQuery } from './criteria.js';
import { compileSearch } from './query-compiler.js';
import type { TableSpec } from './table-specs.js';

/** Runs compiled searches on one table: a page of rows and the exact count, both from one snapshot. */
export class TableSearch<Row, Result> {
  constructor(
    private readonly database: DatabaseConnection,
    private readonly spec: TableSpec,
    private readonly columns: string,
    private readonly fromRow: (row: Row) => Result,
  ) {}

  async search(query: SearchQuery): Promise<SearchPage<Result>> {
    const compiled = compileSearch(this.spec, query);
    return this.database.transaction(async (manager) => {
      // Repeatable read: the count and the page describe the same state of the chain.
      await manager.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { table } = this.spec;
      // OFFSET 0 keeps PostgreSQL from merging the subquery into the ordered outer query, so it
      // finds the matches through their indexes and sorts only those (streaming, top-N).
      const sql = compiled.matchFirst
        ? `SELECT ${this.columns} FROM (SELECT * FROM ${table} WHERE ${compiled.where} OFFSET 0) AS matched`
        : `SELECT ${this.columns} FROM ${table} WHERE ${compiled.where}`;
      const rows = (await manager.query(
        `${sql} ORDER BY ${compiled.orderBy} ${compiled.limitOffset}`,
        compiled.params,
      )) as Row[];
      const results = rows.map(this.fromRow);
      // A page that is not full is the last one: the total is where it ends, without counting.
      if (results.length < query.limit && (results.length > 0 || query.offset === 0)) {
        return { results, totalCount: query.offset + results.length };
      }
      const count = (await manager.query(compiled.count.sql, compiled.count.params)) as {
        count: string;
      }[];
      return { results, totalCount: Number(count[0]?.count ?? 0) };
    });
  }
}
