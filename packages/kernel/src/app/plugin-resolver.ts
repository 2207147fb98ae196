import { resolve as resolveSpecifier } from 'import-meta-resolve';
import Joi from 'joi';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors.js';
import type { Plugin } from '../plugin.js';

/** A plugin object loaded from the package or path that app.json names. */
export interface ResolvedPlugin {
  readonly plugin: Plugin<object>;
  readonly source: string;
}

const pluginShape = Joi.object({
  name: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9._-]*$/i)
    .required(),
  register: Joi.function().required(),
  boot: Joi.function(),
  dispose: Joi.function(),
  dependsOn: Joi.object({
    required: Joi.array().items(Joi.string()),
    optional: Joi.array().items(Joi.string()),
  }),
  configSchema: Joi.any().custom((value: unknown) => {
    if (!Joi.isSchema(value)) throw new Error('must be a joi schema');
    return value;
  }),
  environment: Joi.object().pattern(Joi.string(), Joi.string()),
}).unknown(true);

/**
 * Loads a plugin from a package name (resolved as Node resolves imports, from each of
 * `searchFrom` in turn) or from a path relative to the directory of app.json.
 */
export async function resolvePlugin(
  specifier: string,
  appDir: string,
  searchFrom: readonly string[],
): Promise<ResolvedPlugin> {
  const url = locate(specifier, appDir, searchFrom);
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`plugin '${specifier}' failed to load: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const candidate = module.default ?? module.plugin;
  const { error } = pluginShape.validate(candidate);
  if (candidate === undefined || error) {
    const why = candidate === undefined ? 'it has no default export nor `plugin`' : error?.message;
    throw new ConfigError(`'${specifier}' does not export a plugin: ${why}`);
  }
  return { plugin: candidate as Plugin<object>, source: specifier };
}

function locate(specifier: string, appDir: string, searchFrom: readonly string[]): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const path = entryFile(resolve(appDir, specifier));
    return (
      tryResolve(pathToFileURL(path).href, pathToFileURL(`${appDir}/`).href) ?? notFound([path])
    );
  }
  const bases = [appDir, ...searchFrom];
  for (const base of bases) {
    const found = tryResolve(specifier, pathToFileURL(`${resolve(base)}/`).href);
    if (found) return found;
  }
  return notFound(bases);

  function notFound(places: readonly string[]): never {
    throw new ConfigError(
      `plugin package '${specifier}' could not be found (looked from ${places.join(', ')})`,
    );
  }
}

/** ESM cannot import a directory: a plugin folder is entered through its package.json. */
function entryFile(path: string): string {
  if (!existsSync(path) || !statSync(path).isDirectory()) return path;
  const manifest = join(path, 'package.json');
  if (!existsSync(manifest)) return join(path, 'index.js');
  const { exports, main } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports?: unknown;
    main?: string;
  };
  const target = typeof exports === 'string' ? exports : (main ?? 'index.js');
  return join(path, target);
}

function tryResolve(specifier: string, parent: string): string | undefined {
  try {
    return resolveSpecifier(specifier, parent);
  } catch {
    return undefined;
  }
}
