import { ConfigError, KERNEL_DIRECTORY, KERNEL_VERSION } from '@lni/kernel';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PackedPackage } from './kernel-tarballs.js';

const templates = fileURLToPath(new URL('../../templates/plugin/', import.meta.url));

/** Template file (relative to templates/plugin) → the file it becomes. */
const FILES: Readonly<Record<string, string>> = {
  'package.json.tmpl': 'package.json',
  'tsconfig.json.tmpl': 'tsconfig.json',
  'tsconfig.build.json.tmpl': 'tsconfig.build.json',
  'gitignore.tmpl': '.gitignore',
  'README.md.tmpl': 'README.md',
  'src/index.ts.tmpl': 'src/index.ts',
  'src/index.test.ts.tmpl': 'src/index.test.ts',
};

export interface ScaffoldSettings {
  /** The plugin's name, also its package's name: lower case, digits and dashes. */
  readonly name: string;
  readonly directory: string;
  /**
   * The tarballs of the kernel and the node packages it depends on, the kernel's first (see
   * kernelTarballs), copied into the package's `packs/` for its development install.
   */
  readonly kernelTarballs: readonly PackedPackage[];
}

/** Writes a TypeScript plugin package; returns the files written, relative to its directory. */
export async function scaffoldPlugin(settings: ScaffoldSettings): Promise<string[]> {
  const { name, directory } = settings;
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
    throw new ConfigError(
      `plugin name '${name}' must be lower case letters and digits, words joined by dashes (address-watch)`,
    );
  }
  if (existsSync(directory) && readdirSync(directory).length > 0) {
    throw new ConfigError(`${directory} is not empty: choose another --dir`);
  }
  const [kernelTarball, ...dependencies] = settings.kernelTarballs;
  if (kernelTarball === undefined) throw new Error('scaffoldPlugin needs the kernel tarball');
  await mkdir(join(directory, 'packs'), { recursive: true });
  const copied: string[] = [];
  for (const { tarball } of settings.kernelTarballs) {
    const target = join('packs', basename(tarball));
    await copyFile(tarball, join(directory, target));
    copied.push(target);
  }

  const values = placeholders(name, join('packs', basename(kernelTarball.tarball)));
  for (const [template, target] of Object.entries(FILES)) {
    const text = await readFile(join(templates, template), 'utf8');
    await mkdir(dirname(join(directory, target)), { recursive: true });
    await writeFile(
      join(directory, target),
      text.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
        const value = values[key];
        if (value === undefined) throw new Error(`${template} uses an unknown {{${key}}}`);
        return value;
      }),
    );
  }
  await pinNodePackages(directory, dependencies);
  return [...Object.values(FILES), ...copied];
}

/**
 * The kernel's own node dependencies (`@lni/errors`, …) are not on the npm registry: npm's
 * `overrides` points each at its tarball in `packs/`, so `npm install` resolves them there.
 */
async function pinNodePackages(
  directory: string,
  packages: readonly PackedPackage[],
): Promise<void> {
  if (packages.length === 0) return;
  const file = join(directory, 'package.json');
  const manifest = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  const overrides: Record<string, string> = {};
  for (const { name, tarball } of packages) overrides[name] = `file:packs/${basename(tarball)}`;
  manifest.overrides = overrides;
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

function placeholders(name: string, tarball: string): Readonly<Record<string, string>> {
  const words = name.split('-');
  const Type = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  const camel = Type.charAt(0).toLowerCase() + Type.slice(1);
  const kernel = JSON.parse(readFileSync(join(KERNEL_DIRECTORY, 'package.json'), 'utf8')) as {
    dependencies: Readonly<Record<string, string>>;
  };
  return {
    name,
    Type,
    camel,
    service: `${camel}Greeter`,
    envPrefix: words.join('_').toUpperCase(),
    kernelRange: `^${KERNEL_VERSION}`,
    awilixRange: kernel.dependencies.awilix ?? '*',
    joiRange: kernel.dependencies.joi ?? '*',
    kernelTarball: tarball,
  };
}
