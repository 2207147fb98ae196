import { Gauge, type MetricsRegistry } from '@lni/kernel';
import type { ReplayProgress } from './replay-wait.js';

/** How far the read server was behind the primary at the last commit signal. */
export class ReplayMetrics {
  private readonly bytes: Gauge;
  private readonly seconds: Gauge;

  constructor(metrics: MetricsRegistry) {
    this.bytes = new Gauge({
      name: 'lni_database_replay_lag_bytes',
      help: 'WAL bytes the read server had still to replay when the last commit signal arrived (0 on the primary)',
      registers: [metrics],
    });
    this.seconds = new Gauge({
      name: 'lni_database_replay_lag_seconds',
      help: 'Seconds from the last commit signal to the read server having replayed its commit',
      registers: [metrics],
    });
  }

  record(progress: ReplayProgress): void {
    this.bytes.set(progress.behindBytes);
    this.seconds.set(progress.waitedMs / 1000);
  }
}
