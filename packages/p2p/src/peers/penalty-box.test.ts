import { createLogger } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import { PenaltyBox } from './penalty-box.js';

const policy = {
  malformedMessage: 10,
  rateLimited: 5,
  invalidBlock: 50,
  banThreshold: 30,
  banSeconds: 60,
};
const logger = createLogger({ level: 'fatal' });

function box() {
  const clock = { now: 1_000_000 };
  const penalties = new PenaltyBox({ policy, logger, now: () => clock.now });
  return { penalties, clock };
}

describe('PenaltyBox', () => {
  it('adds the points of each misbehaviour and bans once the threshold is reached', () => {
    const { penalties, clock } = box();
    const bans: string[] = [];
    penalties.onBan((ip) => bans.push(ip));
    expect(penalties.penalise('10.0.0.1', 'malformedMessage', 'bad')).toBe(false);
    expect(penalties.penalise('10.0.0.1', 'rateLimited', 'fast')).toBe(false);
    expect(penalties.get('10.0.0.1')).toMatchObject({ score: 15, bannedUntil: undefined });
    expect(penalties.penalise('10.0.0.1', 'malformedMessage', 'bad')).toBe(false);
    expect(penalties.penalise('10.0.0.1', 'rateLimited', 'fast')).toBe(true);
    expect(penalties.get('10.0.0.1').bannedUntil).toBe(clock.now + 60_000);
    expect(bans).toEqual(['10.0.0.1']);
    expect(penalties.bans()).toEqual([
      { ip: '10.0.0.1', bannedUntil: clock.now + 60_000, reason: 'fast' },
    ]);
    expect(penalties.isBanned('10.0.0.2')).toBe(false);
  });

  it('lifts a ban when its time is over and starts the score again from zero', () => {
    const { penalties, clock } = box();
    penalties.penalise('10.0.0.1', 'invalidBlock', 'bad signature');
    expect(penalties.isBanned('10.0.0.1')).toBe(true);
    clock.now += 59_999;
    expect(penalties.isBanned('10.0.0.1')).toBe(true);
    clock.now += 1;
    expect(penalties.isBanned('10.0.0.1')).toBe(false);
    expect(penalties.get('10.0.0.1').score).toBe(0);
  });

  it('forgives a score that gets no new points for as long as a ban lasts', () => {
    const { penalties, clock } = box();
    penalties.penalise('10.0.0.1', 'malformedMessage', 'bad');
    clock.now += 30_000;
    penalties.penalise('10.0.0.1', 'malformedMessage', 'bad');
    clock.now += 59_999;
    expect(penalties.get('10.0.0.1').score).toBe(20);
    clock.now += 1;
    expect(penalties.get('10.0.0.1').score).toBe(0);
  });

  it('bans an IP an operator names, exempt or not, until the time given, and unbans it', () => {
    const clock = { now: 1_000_000 };
    const penalties = new PenaltyBox({
      policy,
      logger,
      exempt: ['127.0.0.1'],
      now: () => clock.now,
    });
    const bans: [string, number][] = [];
    penalties.onBan((ip, until) => bans.push([ip, until]));

    penalties.ban('127.0.0.1', clock.now + 3_600_000, 'banned by the operator');
    expect(penalties.isBanned('127.0.0.1')).toBe(true);
    // The connections of the IP are dropped as for any ban.
    expect(bans).toEqual([['127.0.0.1', clock.now + 3_600_000]]);
    clock.now += 3_599_999;
    expect(penalties.isBanned('127.0.0.1')).toBe(true);

    expect(penalties.unban('127.0.0.1')).toBe(true);
    expect(penalties.isBanned('127.0.0.1')).toBe(false);
    expect(penalties.get('127.0.0.1')).toMatchObject({ score: 0, bannedUntil: undefined });
    expect(penalties.unban('127.0.0.1')).toBe(false);
  });

  it('ends an operator ban at its time like any other', () => {
    const clock = { now: 1_000_000 };
    const penalties = new PenaltyBox({ policy, logger, now: () => clock.now });
    penalties.ban('10.0.0.9', clock.now + 1_000, 'banned by the operator');
    clock.now += 1_000;
    expect(penalties.isBanned('10.0.0.9')).toBe(false);
  });
});
