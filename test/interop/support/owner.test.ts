import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isLeftover, newRunName, ownerOf } from './owner.js';

describe('run names', () => {
  it('carry the pid of the run that made them, in namespace and database spelling', () => {
    const run = newRunName(4242);
    expect(run.id).toMatch(/^lniop-4242-[0-9a-f]{6}$/);
    expect(ownerOf(`${run.id}-hub`)).toBe(4242);
    expect(ownerOf(`${run.id.replaceAll('-', '_')}_relay1`)).toBe(4242);
  });

  it('leave other names alone', () => {
    for (const name of [
      'lniop-probe-12',
      'lniop-ci-probe-12',
      'lni-fw-s-1',
      'lni_test_abc',
      'postgres',
    ]) {
      expect(ownerOf(name)).toBeUndefined();
      expect(isLeftover(name)).toBe(false);
    }
  });

  it('are leftovers only once their run process is gone', () => {
    expect(isLeftover(`${newRunName().id}-a`)).toBe(false);
    const exited = spawnSync(process.execPath, ['-e', '']).pid;
    expect(isLeftover(`${newRunName(exited).id}-a`)).toBe(true);
  });
});
