import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { declaredKernelRange, KERNEL_VERSION, kernelRangeProblem } from './kernel-version.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-kernel-range-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the kernel versions a plugin supports', () => {
  it("reads the range from the plugin package's peerDependencies, from a module deep inside it", async () => {
    await mkdir(join(dir, 'dist', 'lib'), { recursive: true });
    const manifest = join(dir, 'package.json');
    await writeFile(manifest, JSON.stringify({ peerDependencies: { '@lni/kernel': '^0.1.0' } }));
    expect(declaredKernelRange(join(dir, 'dist', 'lib', 'index.js'))).toEqual({
      range: '^0.1.0',
      manifest,
    });
  });

  it('has no range when the nearest package declares none', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ dependencies: { joi: '^18' } }));
    expect(declaredKernelRange(join(dir, 'index.mjs'))).toBeUndefined();
  });

  it('accepts this kernel in a range that holds it, and names both otherwise', () => {
    expect(kernelRangeProblem(`^${KERNEL_VERSION}`)).toBeUndefined();
    expect(kernelRangeProblem('>=0.1.0 <2', '1.4.0')).toBeUndefined();
    expect(kernelRangeProblem('^2.0.0', '0.1.0')).toBe(
      'supports @lni/kernel ^2.0.0, but this node runs @lni/kernel 0.1.0',
    );
  });

  it('says when the declared range is not a range', () => {
    expect(kernelRangeProblem('latest please', '0.1.0')).toBe(
      `declares peerDependencies["@lni/kernel"] 'latest please', which is not a semver range`,
    );
  });
});
