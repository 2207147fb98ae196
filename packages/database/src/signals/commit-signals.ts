import type { Logger } from '@lni/kernel';
import pg from 'pg';
import type { ReplayMetrics } from './replay-metrics.js';
import type { ReplayWait } from './replay-wait.js';

/** Called with a notification's payload, or `undefined` when notifications may have been missed. */
export type CommitListener = (payload: string | undefined) => void;

export interface CommitSignalsDeps {
  readonly logger: Logger;
  /** The primary: LISTEN is refused on a standby. */
  readonly primary: pg.ClientConfig;
  /** `host:port/db` of the primary, for logs. */
  readonly primaryDescription: string;
  /** Waits until the server this node reads from has replayed a position of the primary's WAL. */
  readonly replay: ReplayWait;
  readonly metrics?: ReplayMetrics;
  readonly reconnect?: { readonly initialDelayMs: number; readonly maxDelayMs: number };
}

/** One signal on its way: the primary's WAL position read when it arrived. */
interface Signal {
  readonly channel: string;
  readonly payload: string | undefined;
  readonly lsn: Promise<string | undefined>;
}

/**
 * NOTIFY from the primary, delivered once this node's database has the commit that sent it:
 * for each notification the primary's WAL insert position is read (it is past the commit),
 * and listeners are called, in arrival order, when the read server has replayed that far. A
 * listener may then read what the commit wrote. Whenever a channel's LISTEN is (re)established
 * (the first connection, a reconnect after the primary restarted, a channel added later), its
 * listeners get `undefined` once, after the same wait: notifications may have been missed, so
 * read the current state.
 */
export class CommitSignals {
  private readonly listeners = new Map<string, CommitListener[]>();
  private readonly arrivalListeners = new Map<string, CommitListener[]>();
  private client: pg.Client | undefined;
  private started = false;
  private connecting = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs: number;
  private lostAt: number | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly stopping = new AbortController();

  constructor(private readonly deps: CommitSignalsDeps) {
    this.reconnectDelayMs = this.initialDelayMs;
  }

  private get initialDelayMs(): number {
    return this.deps.reconnect?.initialDelayMs ?? 250;
  }

  /** Calls `listener` for each NOTIFY on `channel` once replayed here; returns the unsubscribe. */
  on(channel: string, listener: CommitListener): () => void {
    const isNew = !this.listeners.has(channel) && !this.arrivalListeners.has(channel);
    add(this.listeners, channel, listener);
    if (isNew) this.listenOn(channel);
    return () => remove(this.listeners, channel, listener);
  }

  /**
   * Calls `listener` with each payload as soon as the primary's notification arrives, before the
   * read server has replayed it: for knowing how far the writer is (lag), not for reading rows.
   */
  onArrival(channel: string, listener: (payload: string) => void): () => void {
    const isNew = !this.listeners.has(channel) && !this.arrivalListeners.has(channel);
    const wrapped: CommitListener = (payload) => {
      if (payload !== undefined) listener(payload);
    };
    add(this.arrivalListeners, channel, wrapped);
    if (isNew) this.listenOn(channel);
    return () => remove(this.arrivalListeners, channel, wrapped);
  }

  /** Connects to the primary (in the background, retrying) when a channel is listened to. */
  start(): void {
    this.started = true;
    if (this.channels().length > 0) void this.connect();
  }

  async stop(): Promise<void> {
    this.started = false;
    this.stopping.abort();
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    await this.queue;
  }

  /** True while the LISTEN connection to the primary is up. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  private channels(): string[] {
    return [...new Set([...this.listeners.keys(), ...this.arrivalListeners.keys()])];
  }

  private listenOn(channel: string): void {
    const client = this.client;
    if (client) {
      client.query(`LISTEN ${pg.escapeIdentifier(channel)}`).then(
        () => this.enqueue(client, channel, undefined),
        () => undefined, // a lost connection reconnects and listens again
      );
    } else if (this.started) {
      void this.connect();
    }
  }

  private async connect(): Promise<void> {
    if (this.connecting || this.client || !this.started) return;
    this.connecting = true;
    const client = new pg.Client(this.deps.primary);
    client.on('notification', (message) => {
      if (this.client === client) this.enqueue(client, message.channel, message.payload);
    });
    client.on('error', () => this.lose(client, 'connection error'));
    client.on('end', () => this.lose(client, 'connection closed'));
    try {
      await client.connect();
      const channels = this.channels();
      for (const channel of channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (!this.started) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.reconnectDelayMs = this.initialDelayMs;
      const fields = { primary: this.deps.primaryDescription, channels };
      if (this.lostAt === undefined) this.deps.logger.debug(fields, 'Listening for commits');
      else this.deps.logger.info(fields, 'Listening for commits again');
      this.lostAt = undefined;
      for (const channel of channels) this.enqueue(client, channel, undefined);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.scheduleReconnect((error as Error).message);
    } finally {
      this.connecting = false;
    }
  }

  private lose(client: pg.Client, reason: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.scheduleReconnect(reason);
  }

  /** Retries with doubling pauses; logs the outage once, not every attempt. */
  private scheduleReconnect(reason: string): void {
    if (!this.started || this.reconnectTimer) return;
    if (this.lostAt === undefined) {
      this.lostAt = Date.now();
      this.deps.logger.warn(
        { primary: this.deps.primaryDescription, reason },
        'Commit signals: no connection to the primary; reconnecting',
      );
    }
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(this.deps.reconnect?.maxDelayMs ?? 5_000, delay * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
  }

  /**
   * Reads the primary's WAL position now (in arrival order, on the same connection) and queues.
   * The insert position, not the write one: with `synchronous_commit = off` a commit's record
   * may not be written yet when its notification arrives.
   */
  private enqueue(client: pg.Client, channel: string, payload: string | undefined): void {
    if (payload !== undefined) this.call(this.arrivalListeners, channel, payload);
    const lsn = client
      .query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')
      .then((result) => result.rows[0]?.lsn)
      .catch(() => undefined);
    const signal: Signal = { channel, payload, lsn };
    this.queue = this.queue.then(() => this.deliver(signal));
  }

  private async deliver(signal: Signal): Promise<void> {
    const lsn = await signal.lsn;
    // Lost before the position was read: the reconnect's `undefined` signal covers it.
    if (lsn === undefined || this.stopping.signal.aborted) return;
    const progress = await this.deps.replay.until(lsn, this.stopping.signal);
    if (progress === undefined) return;
    this.deps.metrics?.record(progress);
    this.call(this.listeners, signal.channel, signal.payload);
  }

  private call(
    registry: Map<string, CommitListener[]>,
    channel: string,
    payload: string | undefined,
  ): void {
    for (const listener of registry.get(channel) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        this.deps.logger.error({ channel, err: error }, 'A commit listener failed');
      }
    }
  }
}

function add(map: Map<string, CommitListener[]>, key: string, listener: CommitListener): void {
  map.set(key, [...(map.get(key) ?? []), listener]);
}

function remove(map: Map<string, CommitListener[]>, key: string, listener: CommitListener): void {
  const rest = (map.get(key) ?? []).filter((candidate) => candidate !== listener);
  map.set(key, rest);
}
