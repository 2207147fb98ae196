import { runHealthChecks } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import { relayHealthCheck, type RelayProbe } from './relay-health-check.js';

const relay = (name: string, answer: () => Promise<unknown>): RelayProbe => ({
  name,
  currentRound: answer,
});

const relayChecks = (relays: readonly RelayProbe[]) => [relayHealthCheck(() => relays)];

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
