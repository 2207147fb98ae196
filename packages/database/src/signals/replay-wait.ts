import type { Logger } from '@lni/kernel';

/** Runs one statement on the server this node reads from (possibly a standby). */
export type ReadQuery = (text: string, values: unknown[]) => Promise<unknown>;

export interface ReplayProgress {
  /** Bytes of WAL the read server had still to replay when the wait began (0 on the primary). */
  readonly behindBytes: number;
  /** How long the wait took. */
  readonly waitedMs: number;
}

export interface ReplayWaitDeps {
  readonly logger: Logger;
  readonly query: ReadQuery;
  /** Log once when a wait lasts longer than this (a standby far behind or down). */
  readonly warnAfterMs?: number;
  /** Pauses between checks grow from 5 ms to this ceiling. */
  readonly maxPollMs?: number;
}

// NULL replay position (not a standby, or promoted) counts as reached: the server has it all.
const REPLAYED = `SELECT (NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= $1::pg_lsn) AS reached,
  COALESCE(pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()), 0)::float8 AS behind`;

/**
 * Waits until the read server has replayed the primary's WAL up to a position, so that what a
 * commit wrote there can be read here. A standby that restarts or stalls only lengthens the
 * wait: errors and slowness are logged once per wait, and the wait resumes when it answers.
 */
export class ReplayWait {
  private readonly warnAfterMs: number;
  private readonly maxPollMs: number;

  constructor(private readonly deps: ReplayWaitDeps) {
    this.warnAfterMs = deps.warnAfterMs ?? 5_000;
    this.maxPollMs = deps.maxPollMs ?? 250;
  }

  /** Resolves once `lsn` is replayed, or undefined when `signal` aborts first. */
  async until(lsn: string, signal: AbortSignal): Promise<ReplayProgress | undefined> {
    const started = Date.now();
    let behindBytes: number | undefined;
    let pauseMs = 5;
    let warned = false;
    let failing = false;
    while (!signal.aborted) {
      try {
        const [row] = (await this.deps.query(REPLAYED, [lsn])) as {
          reached: boolean;
          behind: number;
        }[];
        behindBytes ??= Math.max(0, row?.behind ?? 0);
        if (failing) this.deps.logger.info({ lsn }, 'Read server answers again');
        failing = false;
        if (row?.reached) {
          if (warned) this.deps.logger.info({ lsn }, 'Read server caught up with the primary');
          return { behindBytes, waitedMs: Date.now() - started };
        }
      } catch (error) {
        if (!failing) {
          this.deps.logger.warn(
            { lsn, reason: (error as Error).message },
            'Read server unreachable while waiting for its replay; retrying',
          );
        }
        failing = true;
      }
      if (!warned && Date.now() - started > this.warnAfterMs) {
        warned = true;
        this.deps.logger.warn(
          { lsn, waitedMs: Date.now() - started },
          'Read server is behind the primary; live data waits for its replay',
        );
      }
      await pause(pauseMs, signal);
      pauseMs = Math.min(this.maxPollMs, pauseMs * 2);
    }
    return undefined;
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
