import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';
import type { Environment, Plugin, RunMode } from '../plugin.js';
import type { AppConfig } from './app-config.js';
import { orderByDependencies } from './dependency-order.js';
import {
  throwIfProblems,
  validatePluginOptions,
  type EnvironmentOverride,
} from './plugin-options.js';
import { resolvePlugin } from './plugin-resolver.js';

/** A plugin ready to register: its object, its validated options and where it came from. */
export interface PluginInstance {
  readonly plugin: Plugin<object>;
  readonly options: object;
  readonly source: string;
  /** Options app.json sets that the environment replaces. */
  readonly overrides: readonly EnvironmentOverride[];
}

export interface PluginChoice {
  readonly plugin: Plugin<object>;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly source?: string;
}

export interface AppPluginsInput {
  readonly appConfig: AppConfig;
  readonly appFile: string;
  readonly mode: RunMode;
  /** Where package names are resolved from after the directory of app.json. */
  readonly searchFrom: readonly string[];
}

/**
 * Turns app.json's list for a mode into plugins in boot order with validated options. Every
 * mistake is found here, before any plugin registers or anything is written.
 */
export async function planFromAppConfig(
  input: AppPluginsInput & { readonly env: Environment },
): Promise<PluginInstance[]> {
  return planFromPlugins(await loadModePlugins(input), input.mode, input.env);
}

/** Loads the plugins app.json lists for a mode, in its order, with their options as written. */
export async function loadModePlugins(input: AppPluginsInput): Promise<PluginChoice[]> {
  const modeConfig = input.appConfig[input.mode];
  if (!modeConfig) {
    throw new ConfigError(`${input.appFile}: mode '${input.mode}' is not defined`);
  }
  const settings = {
    appDir: dirname(input.appFile),
    searchFrom: input.searchFrom,
    where: `${input.appFile}, mode '${input.mode}'`,
  };
  const choices: PluginChoice[] = [];
  for (const entry of modeConfig.plugins) {
    const { plugin, source } = await resolvePlugin(entry.package, settings);
    choices.push({ plugin, options: entry.options, source });
  }
  return choices;
}

/** The same checks for plugin objects given directly (tests, embedding). */
export function planFromPlugins(
  choices: readonly PluginChoice[],
  mode: RunMode,
  env: Environment,
): PluginInstance[] {
  const seen = new Map<string, string>();
  for (const { plugin, source } of choices) {
    const previous = seen.get(plugin.name);
    if (previous !== undefined) {
      throw new ConfigError(
        `mode '${mode}': plugin '${plugin.name}' is listed twice (${previous} and ${source ?? plugin.name})`,
      );
    }
    seen.set(plugin.name, source ?? plugin.name);
  }

  const ordered = orderByDependencies(choices, mode);
  const problems: string[] = [];
  const instances = ordered.map(({ plugin, options = {}, source }) => {
    const result = validatePluginOptions(plugin, options, env, mode);
    problems.push(...result.problems);
    return {
      plugin,
      options: result.options,
      source: source ?? plugin.name,
      overrides: result.overrides,
    };
  });
  throwIfProblems(problems);
  return instances;
}
