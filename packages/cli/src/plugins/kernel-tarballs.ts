import { ConfigError, KERNEL_DIRECTORY } from '@lni/kernel';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runNpm } from './npm.js';

/** One of the node's packages a plugin builds against. */
export interface NodePackage {
  readonly name: string;
  readonly version: string;
  readonly directory: string;
}

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

function readManifest(directory: string): Manifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;
}

/** The directory of `name` as `from` resolves it: the first parent holding its package.json. */
function packageDirectory(name: string, from: string): string {
  let directory = dirname(createRequire(join(from, 'package.json')).resolve(name));
  while (!existsSync(join(directory, 'package.json')) || readManifest(directory).name !== name) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`cannot find the package directory of ${name}`);
    directory = parent;
  }
  return directory;
}

/**
 * The kernel and the node packages it depends on (`@lni/errors`, …), the kernel first: a plugin
 * installs them together, since none is on the npm registry.
 */
export function kernelPackages(): NodePackage[] {
  const found = new Map<string, NodePackage>();
  const visit = (directory: string): void => {
    const manifest = readManifest(directory);
    if (found.has(manifest.name)) return;
    found.set(manifest.name, { name: manifest.name, version: manifest.version, directory });
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@lni/')) visit(packageDirectory(dependency, directory));
    }
  };
  visit(KERNEL_DIRECTORY);
  return [...found.values()];
}

/** A node package packed: its name and its tarball's path. */
export interface PackedPackage {
  readonly name: string;
  readonly tarball: string;
}

/** The file name `npm pack` gives a package's tarball (`@lni/kernel` 0.1.0 → lni-kernel-0.1.0.tgz). */
export function tarballName(pkg: Pick<NodePackage, 'name' | 'version'>): string {
  return `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
}

/**
 * The tarballs of the kernel and its node packages for a plugin to build against, the kernel's
 * first: the ones in `packages` (what `npm run pack` wrote) when given, else a fresh `npm pack`
 * of the packages in use.
 */
export async function kernelTarballs(packages?: string): Promise<PackedPackage[]> {
  const wanted = kernelPackages();
  if (packages !== undefined) {
    return wanted.map((pkg) => {
      const given = join(resolve(packages), tarballName(pkg));
      if (!existsSync(given)) {
        throw new ConfigError(
          `${given} does not exist: --packages names the directory npm run pack wrote (packs/)`,
        );
      }
      return { name: pkg.name, tarball: given };
    });
  }
  const destination = await mkdtemp(join(tmpdir(), 'lni-kernel-pack-'));
  await runNpm(
    ['pack', ...wanted.map((pkg) => pkg.directory), '--pack-destination', destination],
    destination,
  );
  return wanted.map((pkg) => ({ name: pkg.name, tarball: join(destination, tarballName(pkg)) }));
}

/**
 * Runs `use` with the kernel's tarballs (see kernelTarballs) and then removes the temporary
 * directory they were packed into, if packed now: `use` copies what it keeps.
 */
export async function withKernelTarballs<T>(
  packages: string | undefined,
  use: (tarballs: readonly PackedPackage[]) => Promise<T>,
): Promise<T> {
  const tarballs = await kernelTarballs(packages);
  try {
    return await use(tarballs);
  } finally {
    if (packages === undefined && tarballs[0] !== undefined) {
      await rm(dirname(tarballs[0].tarball), { recursive: true, force: true });
    }
  }
}
