import Nes from '@hapi/nes';
import pg from 'pg';
import type { PgReplica } from '../../../test/support/pg-replica.js';
import { quantile } from '../../../test/support/quantile.js';

/**
 * Live delivery lag, per phase of a bench (the load the api node is under meanwhile): a
 * subscriber on an api node's /events/block.applied and a LISTEN on the primary's commit
 * signal; each block's lag is the subscriber's receipt − the commit's NOTIFY, both timed by
 * this process's clock.
 */
export class LiveLag {
  phase = 'quiet';
  readonly #lags = new Map<string, number[]>();

  private constructor(
    private readonly listener: pg.Client,
    private readonly subscriber: Nes.Client,
  ) {}

  /** Follows every block committed from now on. */
  static async follow(replica: PgReplica, apiUri: string): Promise<LiveLag> {
    const listener = new pg.Client({
      host: replica.primary.host,
      port: replica.primary.port,
      user: replica.primary.username,
      database: replica.primary.database,
    });
    const subscriber = new Nes.Client(`ws://${new URL(apiUri).host}`);
    const lag = new LiveLag(listener, subscriber);
    const committedAt = new Map<string, number>();
    const pending = new Map<string, number>();
    await listener.connect();
    listener.on('notification', ({ payload }) => {
      const at = performance.now();
      const { id } = JSON.parse(payload ?? '{}') as { id?: string };
      if (id === undefined) return;
      const received = pending.get(id);
      if (received === undefined) committedAt.set(id, at);
      else lag.#record(received - at);
    });
    await listener.query('LISTEN lni_block_committed');
    await subscriber.connect({ reconnect: false });
    await subscriber.subscribe('/events/block.applied', (message) => {
      const at = performance.now();
      const { id } = message as { id: string };
      const committed = committedAt.get(id);
      // The NOTIFY reaches this process after the standby's replay only if the primary is slow.
      if (committed === undefined) pending.set(id, at);
      else lag.#record(at - committed);
    });
    return lag;
  }

  /** Prints p50, p99 and max per phase and for the whole run, beside the p99 target. */
  report(targetMs: number): void {
    const all = [...this.#lags.values()].flat();
    for (const [phase, lags] of [...this.#lags, ['whole run', all] as const]) {
      const p99 = quantile(lags, 0.99);
      console.log(
        `live delivery lag (commit on the primary → subscriber on an api node), ${phase}, ` +
          `${lags.length} blocks: p50 ${quantile(lags, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ` +
          `max ${quantile(lags, 1).toFixed(1)} ms (target p99 ≤ ${targetMs} ms: ` +
          `${p99 <= targetMs ? 'met' : 'MISSED'})`,
      );
    }
  }

  async close(): Promise<void> {
    await this.subscriber.disconnect();
    await this.listener.end();
  }

  #record(ms: number): void {
    const list = this.#lags.get(this.phase) ?? [];
    list.push(ms);
    this.#lags.set(this.phase, list);
  }
}
