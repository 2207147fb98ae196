import { KERNEL_VERSION } from '@lni/kernel';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  kernelPackages,
  kernelTarballs,
  tarballName,
  withKernelTarballs,
} from './kernel-tarballs.js';
import { scaffoldPlugin } from './scaffold.js';

const KERNEL_TARBALL = `lni-kernel-${KERNEL_VERSION}.tgz`;
let dir: string;
let packs: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-scaffold-'));
  packs = join(dir, 'packs');
  await mkdir(packs);
  for (const pkg of kernelPackages()) {
    await writeFile(join(packs, tarballName(pkg)), `the tarball of ${pkg.name}`);
  }
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('kernel plugin:new', () => {
  it('writes a package named after the plugin, against the kernel tarball it copies in', async () => {
    const target = join(dir, 'address-watch');
    const files = await scaffoldPlugin({
      name: 'address-watch',
      directory: target,
      kernelTarballs: await kernelTarballs(packs),
    });
    expect(files).toContain('src/index.ts');
    const manifest = JSON.parse(await readFile(join(target, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'address-watch',
      peerDependencies: { '@lni/kernel': `^${KERNEL_VERSION}` },
      devDependencies: { '@lni/kernel': `file:packs/${KERNEL_TARBALL}` },
    });
    expect(await readFile(join(target, 'packs', KERNEL_TARBALL), 'utf8')).toBe(
      'the tarball of @lni/kernel',
    );
    // The kernel's own node packages are on no registry: npm takes them from packs/ too.
    const errors = kernelPackages().find((pkg) => pkg.name === '@lni/errors');
    const errorsTarball = tarballName(errors ?? { name: '@lni/errors', version: 'missing' });
    expect(manifest.overrides).toEqual({ '@lni/errors': `file:packs/${errorsTarball}` });
    expect(files).toContain(join('packs', errorsTarball));
    const source = await readFile(join(target, 'src', 'index.ts'), 'utf8');
    expect(source).toContain("name: 'address-watch'");
    expect(source).toContain('readonly addressWatchGreeter: AddressWatchGreeter;');
    expect(source).toContain('ADDRESS_WATCH_GREETING');
    for (const file of files.filter((name) => !name.endsWith('.tgz'))) {
      expect(await readFile(join(target, file), 'utf8')).not.toMatch(/\{\{\w+\}\}/);
    }
  });

  it('packs this kernel when no packages are given, and removes the pack once they are used', async () => {
    let packedIn = '';
    const used = await withKernelTarballs(undefined, async (tarballs) => {
      packedIn = dirname(tarballs[0]?.tarball ?? '');
      expect(tarballs.map(({ tarball }) => basename(tarball))).toEqual(
        kernelPackages().map(tarballName),
      );
      expect(tarballs.every(({ tarball }) => existsSync(tarball))).toBe(true);
      return tarballs.length;
    });
    expect(used).toBe(kernelPackages().length);
    expect(existsSync(packedIn)).toBe(false);
  }, 120_000);

  it('refuses a name that is no package name, a directory in use, and packages without the kernel', async () => {
    const tarballs = await kernelTarballs(packs);
    await expect(
      scaffoldPlugin({
        name: 'Address Watch',
        directory: join(dir, 'a'),
        kernelTarballs: tarballs,
      }),
    ).rejects.toThrow("plugin name 'Address Watch' must be lower case letters and digits");
    await expect(
      scaffoldPlugin({ name: 'watch', directory: packs, kernelTarballs: tarballs }),
    ).rejects.toThrow(`${packs} is not empty: choose another --dir`);
    await expect(kernelTarballs(dir)).rejects.toThrow(
      `${join(dir, KERNEL_TARBALL)} does not exist: --packages names the directory npm run pack wrote (packs/)`,
    );
  });
});
