import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError, describeError } from '@lni/kernel';
import { runNpm } from './npm.js';

/** A package as npm names it: what app.json lists and what `plugin:remove` takes. */
export interface PackageId {
  readonly name: string;
  readonly version: string;
}

/** Where `kernel plugin:add` installs, and the kernel resolves packages from: `<config>/plugins`. */
export function pluginsDirectory(configDir: string): string {
  return join(configDir, 'plugins');
}

/** The package a path, tarball or npm name designates, without installing it. */
export async function packageOf(spec: string, cwd: string): Promise<PackageId> {
  let out: string;
  try {
    ({ out } = await runNpm(
      ['pack', '--dry-run', '--json', '--ignore-scripts', npmSpec(spec, cwd)],
      cwd,
    ));
  } catch (error) {
    throw new ConfigError(`'${spec}' is not a package npm can install: ${describeError(error)}`, {
      cause: error,
    });
  }
  const [found] = JSON.parse(out) as PackageId[];
  if (found === undefined) throw new ConfigError(`'${spec}' names no package`);
  return found;
}

/**
 * How npm installs in `<config>/plugins` (kept in its .npmrc, so that an operator running npm
 * there by hand gets the same): a plugin given as a path is copied (its folder may move), its
 * development dependencies are left out, and its peers (`@lni/kernel`, `awilix`, `joi`) are not
 * installed: the node provides them.
 */
const NPM_SETTINGS = [
  'install-links=true',
  'legacy-peer-deps=true',
  'omit=dev',
  'audit=false',
  'fund=false',
];

/**
 * Installs a plugin and its own dependencies into `<config>/plugins/node_modules`. Resolves with
 * the packages whose install scripts npm skipped (npm 11 runs a dependency's scripts only when
 * `allowScripts` in `<config>/plugins/package.json` allows them), for the operator to review.
 */
export async function installPlugin(
  spec: string,
  configDir: string,
  cwd: string,
): Promise<string[]> {
  const directory = pluginsDirectory(configDir);
  await mkdir(directory, { recursive: true });
  const manifest = join(directory, 'package.json');
  if (!existsSync(manifest)) {
    const description = 'Plugins installed by kernel plugin:add; the node loads them from here';
    await writeFile(manifest, `${JSON.stringify({ private: true, description }, null, 2)}\n`);
  }
  await writeFile(join(directory, '.npmrc'), `${NPM_SETTINGS.join('\n')}\n`);
  const { err } = await runNpm(['install', npmSpec(spec, cwd)], directory);
  return [...err.matchAll(/^npm warn install-scripts {3}(\S+)/gm)].map(
    (match) => match[1] as string,
  );
}

/** Whether `kernel plugin:add` installed the package (it is in `<config>/plugins`). */
export function isInstalled(name: string, configDir: string): boolean {
  const manifest = join(pluginsDirectory(configDir), 'package.json');
  if (!existsSync(manifest)) return false;
  const { dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return Object.hasOwn(dependencies, name);
}

export async function uninstallPlugin(name: string, configDir: string): Promise<void> {
  await runNpm(['uninstall', name], pluginsDirectory(configDir));
}

/** A relative path is the user's, from where they ran the command; npm would read it from ours. */
function npmSpec(spec: string, cwd: string): string {
  const isPath = spec.startsWith('.') || isAbsolute(spec) || /\.(tgz|tar\.gz)$/.test(spec);
  return isPath ? resolve(cwd, spec) : spec;
}
