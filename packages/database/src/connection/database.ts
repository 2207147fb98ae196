import type { Logger } from '@lni/kernel';
import { join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventBus } from '@lni/kernel';
import type { DatabaseOptions } from '../config.js';
import { DatabaseError } from '../errors.js';
import { AvailabilityMonitor } from './availability-monitor.js';
import { createDataSource, type ConnectionTarget, type EntityClasses } from './data-source.js';
import { startEmbeddedServer, type EmbeddedServer } from './embedded-server.js';
import { describeConnectionFailure } from './connection-failure.js';
import { connectWithRetry, isTransientConnectionError } from './retry.js';
import { SearchPool, type StatementOptions } from './search-pool.js';
import { unsupportedServer } from './server-version.js';
import { preparedQuery } from '../query/prepared.js';
import type { Service } from '../service.js';

declare module '@lni/kernel' {
  interface EventMap {
    /** The database stopped answering; writers must pause until `database.available`. */
    'database.unavailable': { readonly reason: string };
    'database.available': Record<string, never>;
  }
}

export interface DatabaseDeps {
  readonly logger: Logger;
  readonly databaseOptions: DatabaseOptions;
  /** The node's data directory; the embedded database lives in `<data>/database`. */
  readonly dataDirectory: string;
  readonly events?: EventBus;
  /** Entity classes of the plugins, read when the connection opens (all have registered by then). */
  readonly entities?: () => EntityClasses;
}

/** The node's connection to PostgreSQL (or the embedded PGlite), opened in `open()`. */
export class Database {
  private source: DataSource | undefined;
  private embedded: EmbeddedServer | undefined;
  private searchPool: SearchPool | undefined;
  private readonly monitor: AvailabilityMonitor;
  /** Where the data is, for people: `host:port/db` or `embedded PGlite at <dir>`. */
  description = 'not connected';

  constructor(private readonly deps: DatabaseDeps) {
    this.monitor = new AvailabilityMonitor({
      probe: async () => {
        await this.dataSource.query('SELECT 1');
      },
      intervalMs: deps.databaseOptions.healthCheckIntervalMs,
      onChange: (available, reason) => this.reportAvailability(available, reason),
    });
  }

  get embeddedDirectory(): string {
    return join(this.deps.dataDirectory, 'database');
  }

  get isEmbedded(): boolean {
    const { host, url } = this.deps.databaseOptions.connection;
    return host === undefined && url === undefined;
  }

  /** False while the database does not answer; block processing must wait. */
  get available(): boolean {
    return this.source !== undefined && this.monitor.available;
  }

  get dataSource(): DataSource {
    if (!this.source) throw new DatabaseError('The database is not connected');
    return this.source;
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Runs `work` in one transaction; every query inside must go through the given manager. */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      this.noticeFailure(error);
      throw error;
    }
  }

  /** A failed statement may be the first sign of an outage: probe now, not at the next tick. */
  private noticeFailure(error: unknown): void {
    if (isTransientConnectionError(error) && this.monitor.running) void this.monitor.check();
  }

  /**
   * Runs read-only `work` on one snapshot of the data (repeatable read), each statement bounded
   * by `timeoutMs`. Cheaper than `transaction` for a search: the transaction opens in the same
   * round trip as its time limit is set, and its commit is not waited for (a read-only commit
   * has nothing to lose; the connection goes back to the pool once it is done).
   */
  async readSnapshot<T>(
    timeoutMs: number,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
         SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`,
      );
    } catch (error) {
      await runner.release();
      this.noticeFailure(error);
      throw error;
    }
    let result: T;
    try {
      result = await work(runner.manager);
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
      throw error;
    }
    void runner
      .query('COMMIT')
      .catch(() => undefined)
      .finally(() => runner.release());
    return result;
  }

  /**
   * Runs one read-only statement, bounded by `timeoutMs`: on a server database through the
   * search connections (one round trip, no transaction: a statement reads one snapshot); on the
   * embedded one, whose single connection block writes share, in a snapshot as `readSnapshot`
   * (planned as PostgreSQL chooses: `options` are for the search connections).
   */
  async readStatement<Row>(
    timeoutMs: number,
    text: string,
    values: readonly unknown[],
    options?: StatementOptions,
  ): Promise<Row[]> {
    const pool = this.searchPool;
    if (pool === undefined) {
      return this.readSnapshot(timeoutMs, (manager) => preparedQuery<Row>(manager, text, values));
    }
    try {
      return await pool.query<Row>(timeoutMs, text, values, options);
    } catch (error) {
      this.noticeFailure(error);
      throw error;
    }
  }

  /** Probes the database now; emits `database.unavailable`/`database.available` on a change. */
  checkAvailability(): Promise<boolean> {
    return this.monitor.check();
  }

  async open(): Promise<void> {
    if (this.source) return;
    const { logger, databaseOptions } = this.deps;
    let target: ConnectionTarget;
    if (this.isEmbedded) {
      this.embedded = await startEmbeddedServer(this.embeddedDirectory);
      target = {
        host: this.embedded.host,
        port: this.embedded.port,
        database: 'postgres',
        username: 'postgres',
        poolSize: 1,
      };
      this.description = `embedded PGlite at ${this.embedded.directory}`;
    } else {
      const { connection } = databaseOptions;
      target = {
        host: connection.host ?? 'localhost',
        port: connection.port,
        database: connection.database,
        username: connection.username,
        password: connection.password,
        url: connection.url,
        poolSize: databaseOptions.poolSize,
        readOnly: databaseOptions.readOnly,
      };
      this.description = connection.url
        ? redactUrl(connection.url)
        : `${target.host}:${target.port}/${target.database}`;
    }
    try {
      this.source = await connectWithRetry(
        async () => {
          const source = createDataSource(target, this.deps.entities?.() ?? []);
          return source.initialize();
        },
        databaseOptions.retry,
        logger,
        this.description,
      );
    } catch (error) {
      await this.embedded?.stop();
      this.embedded = undefined;
      const reason = describeConnectionFailure(error, {
        address: target.url
          ? (redactUrl(target.url).split('/')[0] ?? '')
          : `${target.host}:${target.port}`,
        viaUrl: target.url !== undefined,
      });
      throw new DatabaseError(`Cannot connect to the database (${this.description}): ${reason}`, {
        cause: error,
      });
    }
    await this.refuseUnsupportedServer(this.source);
    if (!this.isEmbedded) {
      this.searchPool = new SearchPool({
        ...(target.url
          ? { connectionString: target.url }
          : {
              host: target.host,
              port: target.port,
              database: target.database,
              user: target.username,
              password: target.password,
            }),
        max: target.poolSize,
        connectionTimeoutMillis: 5_000,
      });
    }
    logger.info({ database: this.description, embedded: this.isEmbedded }, 'Database connected');
  }

  /** True when the server is a hot standby replaying a primary's WAL. */
  async isStandby(): Promise<boolean> {
    const [row] = (await this.dataSource.query('SELECT pg_is_in_recovery() AS standby')) as {
      standby: boolean;
    }[];
    return row?.standby === true;
  }

  /** Stops start-up, before anything is written, on a server too old for the node's queries. */
  private async refuseUnsupportedServer(source: DataSource): Promise<void> {
    const [row] = (await source.query(
      "SELECT current_setting('server_version_num')::int AS number, current_setting('server_version') AS version",
    )) as { number: number; version: string }[];
    const reason = row && unsupportedServer(row.number, row.version);
    if (reason === undefined) return;
    await this.close();
    throw new DatabaseError(`Cannot use the database (${this.description}): ${reason}`);
  }

  /**
   * Starts the periodic probe for a server database. The embedded one runs in this process,
   * and its single connection may be held by a long transaction, which a probe would misread.
   */
  startMonitoring(): void {
    if (!this.isEmbedded) this.monitor.start();
  }

  async close(): Promise<void> {
    this.monitor.stop();
    const source = this.source;
    const searchPool = this.searchPool;
    this.source = undefined;
    this.searchPool = undefined;
    try {
      await searchPool?.end();
      if (source?.isInitialized) await source.destroy();
    } finally {
      await this.embedded?.stop();
      this.embedded = undefined;
    }
  }

  private reportAvailability(available: boolean, reason = 'unknown'): void {
    if (available) {
      this.deps.logger.info({ database: this.description }, 'Database reachable again');
      this.deps.events?.emit('database.available', {});
    } else {
      this.deps.logger.error({ database: this.description, reason }, 'Database unreachable');
      this.deps.events?.emit('database.unavailable', { reason });
    }
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return 'database URL';
  }
}

/** What other services and plugins hold: the connection's public surface. */
export type DatabaseConnection = Service<Database>;
