import { describe, expect, it } from 'vitest';
import { formatLogRecord } from './pretty-stream.js';

const time = '2026-01-02T03:04:05.678Z';
const err = {
  message: 'cannot connect to 127.0.0.1:4010',
  stack: 'Error: cannot connect\n    at dial (p2p.js:1:1)',
};

describe('formatLogRecord', () => {
  it('gives a warning its error message on the same line, without the stack', () => {
    const line = formatLogRecord({
      level: 40,
      msg: 'Seed unreachable',
      time,
      plugin: 'p2p',
      err,
      port: 4010,
    });
    expect(line).toBe(
      '03:04:05.678 WARN  p2p: Seed unreachable port=4010 err=cannot connect to 127.0.0.1:4010',
    );
  });

  it('gives an error its stack on the lines below', () => {
    const text = formatLogRecord({ level: 50, msg: 'Plugin failed to boot', time, err });
    expect(text.split('\n')).toEqual([
      '03:04:05.678 ERROR Plugin failed to boot',
      '    Error: cannot connect',
      '        at dial (p2p.js:1:1)',
    ]);
  });
});
