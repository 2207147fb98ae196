import type { Logger } from './logger.js';

export interface ProgressLogOptions {
  readonly logger: Logger;
  /** Message of the progress lines, e.g. `Syncing blocks`. */
  readonly message: string;
  /** Message of the last line, once `finish()` is called, e.g. `Blocks synced`. */
  readonly doneMessage: string;
  /** Field holding the position, e.g. `height`. */
  readonly positionField: string;
  /** What is counted, e.g. `blocks`: names the rate field (`blocksPerSecond`) and the total. */
  readonly unit: string;
  /** At most one line per interval; 5 s by default. */
  readonly intervalMs?: number;
  readonly now?: () => number;
}

interface Mark {
  readonly at: number;
  readonly position: number;
}

/**
 * Progress of a long task (a sync, a rebuild) as log lines at a steady rate instead of one line
 * per step: position of target, the rate over the last interval and the time left at that rate.
 * The first update logs at once, so the task is seen to start; `finish()` logs the total.
 */
export class ProgressLog {
  private readonly intervalMs: number;
  private readonly now: () => number;
  private started: Mark | undefined;
  private lastLine: Mark | undefined;
  private position = 0;

  constructor(private readonly options: ProgressLogOptions) {
    this.intervalMs = options.intervalMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /** The task reached `position` of `target`; logs when an interval has passed. */
  update(position: number, target: number): void {
    const at = this.now();
    this.position = position;
    if (this.started === undefined || this.lastLine === undefined) {
      this.started = { at, position };
      this.lastLine = this.started;
      this.log({ [this.options.positionField]: position, target });
      return;
    }
    const elapsedMs = at - this.lastLine.at;
    if (elapsedMs < this.intervalMs) return;
    const perSecond = ((position - this.lastLine.position) * 1000) / elapsedMs;
    this.log({
      [this.options.positionField]: position,
      target,
      [`${this.options.unit}PerSecond`]: Math.round(perSecond * 10) / 10,
      timeLeft: perSecond > 0 ? formatDuration((target - position) / perSecond) : 'unknown',
    });
    this.lastLine = { at, position };
  }

  /** Logs the total since the first update, if there was one, and starts over. */
  finish(): void {
    if (this.started === undefined) return;
    const seconds = (this.now() - this.started.at) / 1000;
    this.options.logger.info(
      {
        [this.options.positionField]: this.position,
        [this.options.unit]: this.position - this.started.position,
        seconds: Math.round(seconds * 10) / 10,
      },
      this.options.doneMessage,
    );
    this.started = undefined;
    this.lastLine = undefined;
  }

  private log(fields: Record<string, unknown>): void {
    this.options.logger.info(fields, this.options.message);
  }
}

/** `42s`, `3m 05s`, `2h 07m`: what a person reads at a glance. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${pad(seconds % 60)}s`;
  return `${Math.floor(seconds / 3600)}h ${pad(Math.floor((seconds % 3600) / 60))}m`;
}
