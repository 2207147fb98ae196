import { ConfigError, KERNEL_DIRECTORY, KERNEL_VERSION } from '@lni/kernel';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  /** The kernel's tarball, copied into the package's `packs/` for its development install. */
  readonly kernelTarball: string;
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
  const tarball = join('packs', basename(settings.kernelTarball));
  await mkdir(join(directory, 'packs'), { recursive: true });
  await copyFile(settings.kernelTarball, join(directory, tarball));

  const values = placeholders(name, tarball);
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
  return [...Object.values(FILES), tarball];
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
