import pg from 'pg';
import { statementName } from '../query/prepared.js';

/** How PostgreSQL plans a statement at each run. */
export interface StatementOptions {
  /**
   * The statement's best plan does not depend on its values (a page read from an index in
   * order): plan it once per connection. Left to PostgreSQL, a statement whose generic plan looks
   * dearer than its custom ones (a `LIMIT $n` is costed as a tenth of the rows) is planned anew
   * at every run, and planning can cost more than running.
   */
  readonly genericPlan?: boolean;
}

/**
 * The connections API searches read through, apart from the pool that block writes use. A search
 * here is one statement: no transaction to open or commit (a statement reads one snapshot), so
 * it costs one round trip. Each connection is read-only; its statement timeout and plan mode are
 * set only when a search asks for others than the connection has.
 */
export class SearchPool {
  private readonly pool: pg.Pool;
  private readonly settings = new WeakMap<pg.PoolClient, string>();

  constructor(config: pg.PoolConfig) {
    // No JIT: a search has a budget of seconds, and compiling a plan costs 100-300 ms on its own,
    // which PostgreSQL decides on from estimates (a batch of pages is costed as 1,000 of them).
    this.pool = new pg.Pool({
      ...config,
      options: '-c default_transaction_read_only=on -c jit=off',
    });
    // An idle connection's error (the server restarting) only drops that connection; the
    // database's availability probe reports the outage.
    this.pool.on('error', () => undefined);
  }

  /** Runs `text` as a named prepared statement, cancelled by PostgreSQL after `timeoutMs`. */
  async query<Row>(
    timeoutMs: number,
    text: string,
    values: readonly unknown[],
    { genericPlan = false }: StatementOptions = {},
  ): Promise<Row[]> {
    const client = await this.pool.connect();
    let failure: unknown;
    try {
      const timeout = Math.max(1, Math.floor(timeoutMs));
      const planMode = genericPlan ? 'force_generic_plan' : 'auto';
      const settings = `SET statement_timeout = ${timeout}; SET plan_cache_mode = ${planMode}`;
      if (this.settings.get(client) !== settings) {
        await client.query(settings);
        this.settings.set(client, settings);
      }
      const { rows } = await client.query({ name: statementName(text), text, values: [...values] });
      return rows as Row[];
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // A connection that failed below SQL (a socket, the server going away) is not reused.
      client.release(failure !== undefined && !leavesConnectionUsable(failure));
    }
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** An error PostgreSQL answered for one statement (a timeout, bad input), not a lost link. */
function leavesConnectionUsable(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return false;
  const code = error.code ?? '';
  return !code.startsWith('08') && !code.startsWith('57P');
}
