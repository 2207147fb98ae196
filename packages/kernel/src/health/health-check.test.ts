import { describe, expect, it } from 'vitest';
import { runHealthChecks } from './health-check.js';
import { HealthChecks } from './health-checks.js';

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

describe('HealthChecks, the registry plugins add their checks to', () => {
  it('runs every added check and reports them in the order they were added', async () => {
    const checks = new HealthChecks();
    checks.add({ name: 'queue', run: () => Promise.reject(new Error('backlog of 900 jobs')) });
    checks.add({ name: 'disk', run: () => Promise.resolve({ freeGb: 12 }) });
    const report = await checks.run(1_000);
    expect(JSON.stringify(report)).toBe(
      JSON.stringify({
        status: 'failing',
        failing: ['queue'],
        checks: {
          queue: { ok: false, reason: 'backlog of 900 jobs' },
          disk: { ok: true, freeGb: 12 },
        },
      }),
    );
  });

  it('refuses a second check under a name already added', () => {
    const checks = new HealthChecks();
    checks.add({ name: 'database', run: () => Promise.resolve({}) });
    expect(() => checks.add({ name: 'database', run: () => Promise.resolve({}) })).toThrow(
      "a health check named 'database' is already added",
    );
  });

  it('is ok with no check at all', async () => {
    await expect(new HealthChecks().run(1_000)).resolves.toEqual({
      status: 'ok',
      failing: [],
      checks: {},
    });
  });
});
