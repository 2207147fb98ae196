import { ConfigError, KERNEL_DIRECTORY, KERNEL_VERSION } from '@lni/kernel';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runNpm } from './npm.js';

/** The file name `npm pack` gives this kernel's tarball. */
export const KERNEL_TARBALL = `lni-kernel-${KERNEL_VERSION}.tgz`;

/**
 * The tarball of this node's kernel for a plugin to build against: the one in `packages`
 * (what `npm run pack` wrote) when given, else a fresh `npm pack` of the kernel in use.
 */
export async function kernelTarball(packages?: string): Promise<string> {
  if (packages !== undefined) {
    const given = join(resolve(packages), KERNEL_TARBALL);
    if (!existsSync(given)) {
      throw new ConfigError(
        `${given} does not exist: --packages names the directory npm run pack wrote (packs/)`,
      );
    }
    return given;
  }
  const destination = await mkdtemp(join(tmpdir(), 'lni-kernel-pack-'));
  await runNpm(['pack', KERNEL_DIRECTORY, '--pack-destination', destination], destination);
  return join(destination, KERNEL_TARBALL);
}
