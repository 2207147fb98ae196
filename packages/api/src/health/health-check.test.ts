import { describe, expect, it } from 'vitest';
import { runHealthChecks } from './health-check.js';
import { nodeHealthChecks, type RelayProbe } from './node-health-checks.js';

const relay = (name: string, answer: () => Promise<unknown>): RelayProbe => ({
  name,
  currentRound: answer,
});

const relayChecks = (relays: readonly RelayProbe[]) =>
  nodeHealthChecks({
    database: () => undefined,
    network: () => undefined,
    sync: { lastBlock: () => undefined, peers: () => undefined, now: () => new Date() },
    relays: () => relays,
  });

describe('runHealthChecks', () => {
  it('names a check that hangs as failing once its time is up, and still reports the others', async () => {
    const report = await runHealthChecks(
      [
        { name: 'stuck', run: () => new Promise(() => {}) },
        { name: 'fine', run: () => Promise.resolve({ height: 3 }) },
      ],
      50,
    );
    expect(report).toEqual({
      status: 'failing',
      failing: ['stuck'],
      checks: {
        stuck: { ok: false, reason: 'no answer within 50 ms' },
        fine: { ok: true, height: 3 },
      },
    });
  });
});

describe('the relay check of a node with a forger', () => {
  it('passes when one relay answers though another does not, naming the one that answered', async () => {
    const checks = relayChecks([
      relay('10.0.0.1:4000', () => Promise.reject(new Error('connect ECONNREFUSED'))),
      relay('10.0.0.2:4000', () => Promise.resolve({ round: 3 })),
    ]);
    expect((await runHealthChecks(checks, 1_000)).checks.relay).toEqual({
      ok: true,
      relay: '10.0.0.2:4000',
    });
  });

  it('fails naming every relay and its error when none answers', async () => {
    const checks = relayChecks([
      relay('10.0.0.1:4000', () => Promise.reject(new Error('connect ECONNREFUSED'))),
    ]);
    const report = await runHealthChecks(checks, 1_000);
    expect(report.failing).toEqual(['relay']);
    expect(report.checks.relay?.reason).toBe(
      'no relay answers (10.0.0.1:4000: connect ECONNREFUSED)',
    );
  });

  it('fails while the forger has not started (no relays yet)', async () => {
    const report = await runHealthChecks(relayChecks([]), 1_000);
    expect(report.checks.relay).toEqual({ ok: false, reason: 'the forger has not started' });
  });
});
