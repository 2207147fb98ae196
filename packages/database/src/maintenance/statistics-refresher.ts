import type { Logger } from '@lni/kernel';
import type { DatabaseConnection } from '../connection/database.js';

export interface StatisticsRefresherDeps {
  readonly database: DatabaseConnection;
  readonly logger: Logger;
  /** How often the chain's growth is checked; 0 turns the refresher off. */
  readonly intervalMs: number;
  /** Tables whose rows come and go, vacuumed at every check (see SchemaContribution). */
  readonly churningTables?: () => readonly string[];
}

/**
 * Keeps the query planner's statistics and the tables' visibility maps in step with the chain.
 * On a server autovacuum does it, but the embedded database runs no background workers, and a
 * sync of a million transactions outruns autovacuum anyway. Planning with the row counts of an
 * empty table, PostgreSQL scans where an index answers at once (a page of transfers by amount
 * over 1,000,000 rows: 526 ms before ANALYZE, 1 ms after); without the visibility map, counting
 * an address's transactions reads every row from the heap instead of the index alone (2,000
 * rows: 8 ms before VACUUM, 3 ms after). Both run whenever the chain grew by half since the last
 * time (and by at least 100 blocks), so the estimates stay within a factor of 1.5.
 *
 * The plugins' churning tables (the pool's) are vacuumed at every check: each transaction the
 * node ever pooled is a row added then deleted, and without autovacuum its indexes would grow
 * with every one of them. They hold few live rows, so the vacuum takes milliseconds.
 */
/** How long after start the first check waits (at most the interval). */
const FIRST_CHECK_DELAY_MS = 10_000;

export class StatisticsRefresher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private analyzedAtHeight = 0;

  constructor(private readonly deps: StatisticsRefresherDeps) {}

  start(): void {
    if (this.timer || this.deps.intervalMs === 0) return;
    // Not at once: the statistics PostgreSQL keeps survive a restart, and the first VACUUM
    // (ANALYZE) of a large chain takes seconds of the server's time that a restarting node
    // needs to load its state (issue 29: restart in seconds).
    this.timer = setTimeout(
      () => {
        void this.check();
        this.timer = setInterval(() => void this.check(), this.deps.intervalMs);
        this.timer.unref();
      },
      Math.min(this.deps.intervalMs, FIRST_CHECK_DELAY_MS),
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Vacuums and analyzes now if the chain grew enough since the last run; concurrent calls share one run. */
  check(): Promise<void> {
    this.running ??= this.refreshIfGrown().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async refreshIfGrown(): Promise<void> {
    const { database, logger } = this.deps;
    try {
      const churning = this.deps.churningTables?.() ?? [];
      if (churning.length > 0) await database.manager.query(`VACUUM ${churning.join(', ')}`);
      const rows = (await database.manager.query(
        'SELECT coalesce(max(height), 0) AS height FROM blocks',
      )) as { height: number | string }[];
      const height = Number(rows[0]?.height ?? 0);
      const grown = height - this.analyzedAtHeight;
      if (grown < Math.max(100, this.analyzedAtHeight / 2)) return;
      const started = performance.now();
      await database.manager.query(
        'VACUUM (ANALYZE) blocks, transactions, transaction_parties, party_totals, ' +
          'party_pair_totals, wide_transaction_parties, rounds',
      );
      this.analyzedAtHeight = height;
      logger.debug(
        { height, ms: Math.round(performance.now() - started) },
        'Planner statistics refreshed',
      );
    } catch (error) {
      // An outage is the availability monitor's to report; the next tick tries again.
      logger.debug({ err: error }, 'Planner statistics not refreshed');
    }
  }
}
