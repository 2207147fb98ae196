import { resolve as resolveSpecifier } from 'import-meta-resolve';
import Joi from 'joi';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError, describeError } from '../errors.js';
import type { Plugin } from '../plugin.js';
import { declaredKernelRange, kernelRangeProblem } from './kernel-version.js';
import { describeLoadError } from './load-error.js';

/** A plugin object loaded from the package or path that app.json names. */
export interface ResolvedPlugin {
  readonly plugin: Plugin<object>;
  readonly source: string;
  /** The module it was loaded from. */
  readonly url: string;
}

export interface ResolveSettings {
  /** The directory of app.json: paths are relative to it, packages are looked up from it. */
  readonly appDir: string;
  /** Where package names are looked up after app.json's directory and its `plugins/`. */
  readonly searchFrom: readonly string[];
  /** What to name before each problem: app.json and the mode. */
  readonly where: string;
}

const commandShape = Joi.object({
  name: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9-]*$/)
    .required(),
  description: Joi.string().required(),
  run: Joi.function().required(),
  arguments: Joi.array().items(Joi.object({ name: Joi.string().required() }).unknown(true)),
  // The CLI gives every plugin command these flags itself.
  options: Joi.array().items(
    Joi.object({
      name: Joi.string().invalid('mode', 'config', 'data', 'network', 'help').required(),
    }).unknown(true),
  ),
}).unknown(true);

const pluginShape = Joi.object({
  name: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9._-]*$/i)
    .invalid('kernel')
    .required(),
  register: Joi.function().required(),
  boot: Joi.function(),
  dispose: Joi.function(),
  dependsOn: Joi.object({
    required: Joi.array().items(Joi.string()),
    optional: Joi.array().items(Joi.string()),
  }),
  replaces: Joi.array().items(Joi.string()),
  commands: Joi.array().items(commandShape).unique('name'),
  configSchema: Joi.any().custom((value: unknown) => {
    if (!Joi.isSchema(value)) throw new Error('must be a joi schema');
    return value;
  }),
  environment: Joi.object().pattern(Joi.string(), Joi.string()),
}).unknown(true);

/**
 * Loads a plugin from a package name (resolved as Node resolves imports, from app.json's
 * directory, its `plugins/` where `kernel plugin:add` installs, then each of `searchFrom`) or
 * from a path relative to the directory of app.json, and checks that it supports this kernel.
 */
export async function resolvePlugin(
  specifier: string,
  settings: ResolveSettings,
): Promise<ResolvedPlugin> {
  const { where } = settings;
  const url = locate(specifier, settings);
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(
      `${where}: plugin '${specifier}' failed to load: ${describeLoadError(error, url)}`,
      { cause: error },
    );
  }
  const candidate = module.default ?? module.plugin;
  const { error } = pluginShape.validate(candidate);
  if (candidate === undefined || error) {
    const why = candidate === undefined ? 'it has no default export nor `plugin`' : error?.message;
    throw new ConfigError(`${where}: '${specifier}' does not export a plugin: ${why}`);
  }
  const plugin = candidate as Plugin<object>;
  checkKernelRange(plugin, specifier, url, where);
  return { plugin, source: specifier, url };
}

/** A plugin whose package declares a kernel range this kernel is not in stops start-up. */
function checkKernelRange(plugin: Plugin<object>, specifier: string, url: string, where: string) {
  if (!url.startsWith('file:')) return;
  let problem: string | undefined;
  try {
    const declared = declaredKernelRange(fileURLToPath(url));
    problem = declared && kernelRangeProblem(declared.range);
  } catch (error) {
    problem = `its package.json cannot be read: ${describeError(error)}`;
  }
  if (problem !== undefined) {
    throw new ConfigError(`${where}: plugin '${plugin.name}' (${specifier}) ${problem}`);
  }
}

function locate(specifier: string, { appDir, searchFrom, where }: ResolveSettings): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const path = entryFile(resolve(appDir, specifier));
    const found = tryResolve(pathToFileURL(path).href, pathToFileURL(`${appDir}/`).href);
    if (found) return found;
    throw new ConfigError(`${where}: plugin '${specifier}' could not be found at ${path}`);
  }
  const installed = join(appDir, 'plugins');
  for (const base of [appDir, installed, ...searchFrom]) {
    const found = tryResolve(specifier, pathToFileURL(`${resolve(base)}/`).href);
    if (found) return found;
  }
  throw new ConfigError(
    `${where}: plugin package '${specifier}' could not be found (looked from ${[appDir, ...searchFrom].join(', ')}) nor in ${installed}, where kernel plugin:add installs`,
  );
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
