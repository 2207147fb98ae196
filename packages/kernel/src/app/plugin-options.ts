import { ConfigError } from '../errors.js';
import type { Environment, Plugin } from '../plugin.js';

/**
 * Applies a plugin's environment overrides to its app.json options, validates them against its
 * schema (defaults applied) and returns a deeply frozen value, or the list of every problem.
 */
export function validatePluginOptions(
  plugin: Plugin<object>,
  rawOptions: Readonly<Record<string, unknown>>,
  env: Environment,
  mode: string,
): { options: object; problems: string[] } {
  const where = `mode '${mode}', plugin '${plugin.name}'`;
  const options = structuredClone(rawOptions) as Record<string, unknown>;
  const fromEnv = new Map<string, string>();
  for (const [variable, path] of Object.entries(plugin.environment ?? {})) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    setPath(options, path, value);
    fromEnv.set(path, variable);
  }

  if (!plugin.configSchema) {
    const keys = Object.keys(options);
    const problems = keys.map((key) => `${where}, option '${key}': the plugin takes no options`);
    return { options: Object.freeze({}), problems };
  }

  const { error, value } = plugin.configSchema.validate(options, {
    abortEarly: false,
    convert: true,
  });
  if (error) {
    const problems = error.details.map((detail) => {
      const key = detail.path.join('.');
      const variable = fromEnv.get(key);
      const source = variable ? ` (set by ${variable})` : '';
      return `${where}, option '${key}'${source}: ${detail.message}`;
    });
    return { options: Object.freeze({}), problems };
  }
  return { options: deepFreeze(value as object), problems: [] };
}

export function throwIfProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const child = node[key];
    if (typeof child !== 'object' || child === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1) as string] = value;
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) deepFreeze(child);
  }
  return Object.freeze(value);
}
