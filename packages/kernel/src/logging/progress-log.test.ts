import bunyan from 'bunyan';
import { describe, expect, it } from 'vitest';
import { formatDuration, ProgressLog } from './progress-log.js';

function recording() {
  const records = new bunyan.RingBuffer({ limit: 100 });
  const logger = bunyan.createLogger({
    name: 'test',
    streams: [{ type: 'raw', level: 'trace', stream: records }],
  });
  const lines = () =>
    (records.records as Record<string, unknown>[]).map(
      ({ msg, height, target, blocksPerSecond, timeLeft, blocks, seconds }) => ({
        msg,
        height,
        target,
        blocksPerSecond,
        timeLeft,
        blocks,
        seconds,
      }),
    );
  return { logger, lines };
}

describe('ProgressLog', () => {
  it('logs the start at once, then one line per interval with rate and time left', () => {
    const { logger, lines } = recording();
    let now = 0;
    const progress = new ProgressLog({
      logger,
      message: 'Syncing blocks',
      doneMessage: 'Blocks synced',
      positionField: 'height',
      unit: 'blocks',
      intervalMs: 5_000,
      now: () => now,
    });
    progress.update(100, 2_100);
    // 47 blocks, one call each, within the interval: no line for them.
    for (let height = 101; height <= 147; height++) {
      now += 100;
      progress.update(height, 2_100);
    }
    now = 5_000;
    progress.update(600, 2_100);
    now = 10_000;
    progress.update(1_100, 2_100);
    now = 12_000;
    progress.update(2_100, 2_100);
    progress.finish();

    expect(lines()).toEqual([
      { msg: 'Syncing blocks', height: 100, target: 2_100 },
      {
        msg: 'Syncing blocks',
        height: 600,
        target: 2_100,
        blocksPerSecond: 100,
        timeLeft: '15s',
      },
      {
        msg: 'Syncing blocks',
        height: 1_100,
        target: 2_100,
        blocksPerSecond: 100,
        timeLeft: '10s',
      },
      { msg: 'Blocks synced', height: 2_100, blocks: 2_000, seconds: 12 },
    ]);
  });

  it('starts over after finish, and finish without progress says nothing', () => {
    const { logger, lines } = recording();
    const progress = new ProgressLog({
      logger,
      message: 'Syncing blocks',
      doneMessage: 'Blocks synced',
      positionField: 'height',
      unit: 'blocks',
      now: () => 0,
    });
    progress.finish();
    expect(lines()).toEqual([]);
    progress.update(5, 10);
    progress.finish();
    progress.update(20, 30);
    expect(lines().map((line) => [line.msg, line.height])).toEqual([
      ['Syncing blocks', 5],
      ['Blocks synced', 5],
      ['Syncing blocks', 20],
    ]);
  });

  it('writes durations as a person reads them', () => {
    expect([0.4, 42, 185, 7_620].map(formatDuration)).toEqual(['0s', '42s', '3m 05s', '2h 07m']);
  });
});
