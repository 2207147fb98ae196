import type { LogRecord } from '../logging/pretty-stream.js';

type Listener = (record: LogRecord) => void;

/**
 * The node's recent log records in memory, for `kernel log` and the last errors of `status`:
 * a bunyan raw stream that keeps the last `capacity` records and tells followers of new ones.
 */
export class LogRing {
  private readonly records: LogRecord[] = [];
  private readonly listeners = new Set<Listener>();

  constructor(private readonly capacity = 1_000) {}

  /** Bunyan's raw-stream entry point. */
  write(record: LogRecord): void {
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.shift();
    for (const listener of this.listeners) listener(record);
  }

  /** Records kept, oldest first, at `minLevel` or above; the last `limit` of them. */
  recent(minLevel = 0, limit = this.capacity): LogRecord[] {
    return this.records.filter((record) => record.level >= minLevel).slice(-limit);
  }

  /** Calls `listener` with each record from now on; returns the unsubscribe. */
  follow(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
