import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

interface Manifest {
  readonly name?: string;
  readonly version?: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

/** The directory of this kernel's package (the one `npm pack` packs for plugin authors). */
export const KERNEL_DIRECTORY = fileURLToPath(new URL('../../', import.meta.url));

/** The version of this kernel, from its package.json. */
export const KERNEL_VERSION =
  readManifest(join(KERNEL_DIRECTORY, 'package.json')).version ?? '0.0.0';

/** The kernel range a plugin's package supports: its package.json's `peerDependencies["@lni/kernel"]`. */
export interface KernelRange {
  readonly range: string;
  /** The package.json that declares it. */
  readonly manifest: string;
}

/**
 * The range declared by the package a plugin module belongs to (the nearest package.json above
 * it), or undefined when that package declares none, or there is no package.
 */
export function declaredKernelRange(moduleFile: string): KernelRange | undefined {
  for (let directory = dirname(moduleFile); ; directory = dirname(directory)) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest)) {
      const range = readManifest(manifest).peerDependencies?.['@lni/kernel'];
      return range === undefined ? undefined : { range, manifest };
    }
    if (dirname(directory) === directory) return undefined;
  }
}

/** Why a plugin declaring `range` cannot run on this kernel, or undefined when it can. */
export function kernelRangeProblem(
  range: string,
  kernelVersion: string = KERNEL_VERSION,
): string | undefined {
  if (semver.validRange(range) === null) {
    return `declares peerDependencies["@lni/kernel"] '${range}', which is not a semver range`;
  }
  if (!semver.satisfies(kernelVersion, range, { includePrerelease: true })) {
    return `supports @lni/kernel ${range}, but this node runs @lni/kernel ${kernelVersion}`;
  }
  return undefined;
}

function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}
