import { createLogger } from '@lni/kernel';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { connectWithRetry, isTransientConnectionError } from './retry.js';

function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', out, pretty: false }), lines };
}

const policy = { attempts: 4, timeoutMs: 60_000, initialDelayMs: 5, maxDelayMs: 8 };

describe('connectWithRetry', () => {
  it('retries network failures with growing pauses and says so in the log', async () => {
    const { logger, lines } = recordingLogger();
    let calls = 0;
    const value = await connectWithRetry(
      async () => {
        calls += 1;
        if (calls < 3)
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return 'connected';
      },
      policy,
      logger,
      'db.example:5432/lni',
    );
    expect(value).toBe('connected');
    expect(lines.map((line) => [line.msg, line.attempt, line.retryInMs])).toEqual([
      ['Database unreachable, retrying', 1, 5],
      ['Database unreachable, retrying', 2, 8],
    ]);
    expect(lines[0]).toMatchObject({ target: 'db.example:5432/lni', attempts: 4 });
  });

  it('gives up after the last attempt with the last error', async () => {
    const { logger } = recordingLogger();
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw Object.assign(new Error(`refused ${calls}`), { code: 'ECONNREFUSED' });
    };
    await expect(connectWithRetry(failing, policy, logger, 't')).rejects.toThrow('refused 4');
    expect(calls).toBe(4);
  });

  it('does not retry a wrong password or a missing database', async () => {
    expect(isTransientConnectionError({ code: '28P01' })).toBe(false);
    expect(isTransientConnectionError({ code: '3D000' })).toBe(false);
    expect(isTransientConnectionError({ code: '57P03' })).toBe(true);
    expect(isTransientConnectionError({ code: 'ETIMEDOUT' })).toBe(true);
    const { logger, lines } = recordingLogger();
    const denied = async () => {
      throw Object.assign(new Error('password authentication failed'), { code: '28P01' });
    };
    await expect(connectWithRetry(denied, policy, logger, 't')).rejects.toThrow('password');
    expect(lines).toEqual([]);
  });
});

describe('connectWithRetry within a time limit', () => {
  it('stops retrying once timeoutMs has passed, the last pause shortened to end on time', async () => {
    const { logger, lines } = recordingLogger();
    const startedAt = Date.now();
    const refused = async () => {
      throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    };
    const policy = { attempts: 100, timeoutMs: 300, initialDelayMs: 100, maxDelayMs: 1_000 };
    await expect(connectWithRetry(refused, policy, logger, 't')).rejects.toThrow('refused');
    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(1_500);
    const pauses = lines.map((line) => line.retryInMs as number);
    expect(pauses).toHaveLength(2);
    expect(pauses[0]).toBe(100);
    expect(pauses[1]).toBeLessThanOrEqual(200);
  });
});
