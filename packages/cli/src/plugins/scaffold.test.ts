import { KERNEL_VERSION } from '@lni/kernel';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KERNEL_TARBALL, kernelTarball } from './kernel-tarball.js';
import { scaffoldPlugin } from './scaffold.js';

let dir: string;
let packs: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-scaffold-'));
  packs = join(dir, 'packs');
  await mkdir(packs);
  await writeFile(join(packs, KERNEL_TARBALL), 'a tarball');
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
      kernelTarball: await kernelTarball(packs),
    });
    expect(files).toContain('src/index.ts');
    const manifest = JSON.parse(await readFile(join(target, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'address-watch',
      peerDependencies: { '@lni/kernel': `^${KERNEL_VERSION}` },
      devDependencies: { '@lni/kernel': `file:packs/${KERNEL_TARBALL}` },
    });
    expect(await readFile(join(target, 'packs', KERNEL_TARBALL), 'utf8')).toBe('a tarball');
    const source = await readFile(join(target, 'src', 'index.ts'), 'utf8');
    expect(source).toContain("name: 'address-watch'");
    expect(source).toContain('readonly addressWatchGreeter: AddressWatchGreeter;');
    expect(source).toContain('ADDRESS_WATCH_GREETING');
    for (const file of files.filter((name) => !name.endsWith('.tgz'))) {
      expect(await readFile(join(target, file), 'utf8')).not.toMatch(/\{\{\w+\}\}/);
    }
  });

  it('refuses a name that is no package name, a directory in use, and packages without the kernel', async () => {
    const tarball = join(packs, KERNEL_TARBALL);
    await expect(
      scaffoldPlugin({ name: 'Address Watch', directory: join(dir, 'a'), kernelTarball: tarball }),
    ).rejects.toThrow("plugin name 'Address Watch' must be lower case letters and digits");
    await expect(
      scaffoldPlugin({ name: 'watch', directory: packs, kernelTarball: tarball }),
    ).rejects.toThrow(`${packs} is not empty: choose another --dir`);
    await expect(kernelTarball(dir)).rejects.toThrow(
      `${join(dir, KERNEL_TARBALL)} does not exist: --packages names the directory npm run pack wrote (packs/)`,
    );
  });
});
