import type { Logger } from '@lni/kernel';

/** A catch-up of more blocks than this, or longer than one progress interval, is told at info. */
const NOTABLE_BLOCKS = 100;

/**
 * Tells how a sync run goes at a steady rate instead of a line per block: height and target,
 * blocks per second and the time left every `intervalMs`, then one line at the end. Following
 * the network block by block stays at debug.
 */
export class SyncProgress {
  private readonly started: number;
  private lastLog: number;
  private height: number;

  constructor(
    private readonly logger: Logger,
    private readonly from: number,
    private readonly target: number,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.lastLog = this.started;
    this.height = from;
  }

  reached(height: number): void {
    this.height = height;
    const now = this.now();
    if (now - this.lastLog < this.intervalMs) return;
    this.lastLog = now;
    const perSecond = (height - this.from) / Math.max(0.001, (now - this.started) / 1000);
    const left = Math.max(0, this.target - height);
    this.logger.info(
      {
        height,
        target: this.target,
        blocksPerSecond: Math.round(perSecond * 10) / 10,
        secondsLeft: perSecond > 0 ? Math.round(left / perSecond) : undefined,
      },
      'Syncing',
    );
  }

  done(height: number): void {
    const blocks = height - this.from;
    if (blocks <= 0) return;
    const seconds = Math.round((this.now() - this.started) / 100) / 10;
    const notable = blocks >= NOTABLE_BLOCKS || seconds * 1000 >= this.intervalMs;
    this.logger[notable ? 'info' : 'debug'](
      { from: this.from, height, blocks, seconds },
      'Synced blocks from peers',
    );
  }
}
