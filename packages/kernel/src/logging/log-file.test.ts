import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeLogFiles, createLogger, deferLogFile } from './logger.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-log-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const quiet = () => createLogger({ level: 'fatal', out: process.stderr, pretty: false });

describe('the log file opened once start-up goes ahead', () => {
  it('writes what was logged before it opened, then the rest, from loggers made in between', async () => {
    const logger = quiet();
    const file = deferLogFile(logger);
    logger.info('before');
    const plugin = logger.child({ plugin: 'store' });
    plugin.debug('registered');
    const path = join(dir, 'logs', 'node.log');
    file.open(path);
    plugin.info('booted');
    await closeLogFiles(logger);
    const records = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; plugin?: string });
    expect(records.map(({ msg, plugin: name }) => [msg, name])).toEqual([
      ['before', undefined],
      ['registered', 'store'],
      ['booted', 'store'],
    ]);
  });

  it('closes at once when start-up stopped before it opened', async () => {
    const logger = quiet();
    deferLogFile(logger);
    logger.error('plugin x registers metrics');
    await expect(closeLogFiles(logger)).resolves.toBeUndefined();
  });
});
