import { describe, expect, it } from 'vitest';
import { formatWarnings, groupWarnings } from './warning-summary.js';

const lni = (level: number, msg: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'lni', level, msg, time: `2026-11-29T10:00:0${level % 10}Z`, ...extra });

describe("a failed scenario's warning summary", () => {
  it("groups LNI's and ARK's warnings by what they say, counting repeats, newest last", () => {
    const log = [
      lni(30, 'Forged block'),
      lni(40, 'Missed slot', { reason: 'waiting for the relay (1 peers are above it)', height: 7 }),
      '[2026-11-29 10:49:36.015] INFO: Forged new block 1173 by delegate genesis_47',
      lni(40, 'Missed slot', { reason: 'waiting for the relay (2 peers are above it)', height: 9 }),
      '[2026-11-29 10:50:00.001] WARN: Peer 10.77.0.3 declined to accept block 42',
      lni(50, 'Missed slot: forging failed', { err: { message: 'no relay accepted the block' } }),
      'not a log line {',
    ].join('\n');
    const groups = groupWarnings(log);
    expect(groups.map((group) => [group.count, group.last])).toEqual([
      [2, 'Missed slot: waiting for the relay (2 peers are above it)'],
      [1, 'WARN Peer 10.77.0.3 declined to accept block 42'],
      [1, 'Missed slot: forging failed: no relay accepted the block'],
    ]);
    expect(formatWarnings(groups, 2)).toEqual([
      '  1× [2026-11-29 10:50:00.001] WARN Peer 10.77.0.3 declined to accept block 42',
      '  1× [2026-11-29T10:00:00Z] Missed slot: forging failed: no relay accepted the block',
    ]);
  });

  it('says so when a node warned of nothing', () => {
    expect(formatWarnings(groupWarnings(lni(30, 'Forger started')), 6)).toEqual([
      '  (no warnings)',
    ]);
  });
});
