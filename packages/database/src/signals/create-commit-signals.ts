import type { Logger, MetricsRegistry } from '@lni/kernel';
import type { DatabaseOptions } from '../config.js';
import type { DatabaseConnection } from '../connection/database.js';
import { describeConnection, pgClientConfig } from '../connection/pg-config.js';
import { CommitSignals } from './commit-signals.js';
import { ReplayMetrics } from './replay-metrics.js';
import { ReplayWait } from './replay-wait.js';

/** The database plugin's `commitSignals`: LISTEN on `listen` (or the connection itself). */
export function createCommitSignals(deps: {
  readonly logger: Logger;
  readonly options: DatabaseOptions;
  readonly database: DatabaseConnection;
  readonly metrics: MetricsRegistry;
}): CommitSignals {
  const primary = deps.options.listen ?? deps.options.connection;
  return new CommitSignals({
    logger: deps.logger,
    primary: pgClientConfig(primary),
    primaryDescription: describeConnection(primary),
    replay: new ReplayWait({
      logger: deps.logger,
      query: (text, values) => deps.database.dataSource.query(text, values),
    }),
    metrics: new ReplayMetrics(deps.metrics),
  });
}
