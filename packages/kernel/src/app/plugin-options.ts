import { ConfigError } from '../errors.js';
import type { Environment, Plugin } from '../plugin.js';

/** An option app.json sets that an environment variable replaces. */
export interface EnvironmentOverride {
  readonly option: string;
  readonly variable: string;
}

export interface ValidatedOptions {
  readonly options: object;
  readonly problems: string[];
  /** Options set in app.json and replaced by the environment, to be said at start-up. */
  readonly overrides: readonly EnvironmentOverride[];
}

/**
 * Validates a plugin's app.json options against its schema as they are written, then again
 * with its environment overrides applied (defaults applied), and returns a deeply frozen value
 * or every problem. app.json is validated on its own so that a mistake there is reported even
 * while a variable hides it: it would come back the day the variable is unset.
 */
export function validatePluginOptions(
  plugin: Plugin<object>,
  rawOptions: Readonly<Record<string, unknown>>,
  env: Environment,
  mode: string,
): ValidatedOptions {
  const where = `mode '${mode}', plugin '${plugin.name}'`;
  const options = structuredClone(rawOptions) as Record<string, unknown>;
  const fromEnv = new Map<string, string>();
  const overrides: EnvironmentOverride[] = [];
  for (const [variable, path] of Object.entries(plugin.environment ?? {})) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    if (getPath(rawOptions, path) !== undefined) overrides.push({ option: path, variable });
    setPath(options, path, value);
    fromEnv.set(path, variable);
  }

  if (!plugin.configSchema) {
    const keys = Object.keys(rawOptions);
    const problems = keys.map((key) => `${where}, option '${key}': the plugin takes no options`);
    return { options: Object.freeze({}), problems, overrides };
  }

  // The variable that set `key`, or the list or object holding it (`remoteAccess.1`).
  const setBy = (key: string): { path: string; variable: string } | undefined => {
    for (const [path, variable] of fromEnv) {
      if (key === path || key.startsWith(`${path}.`)) return { path, variable };
    }
    return undefined;
  };
  const validate = (input: object) =>
    plugin.configSchema?.validate(input, { abortEarly: false, convert: true });
  const problems: string[] = [];
  for (const detail of validate(rawOptions)?.error?.details ?? []) {
    const key = detail.path.join('.');
    const env = setBy(key);
    // An option app.json leaves out and the environment gives is not app.json's mistake.
    if (env && getPath(rawOptions, env.path) === undefined) continue;
    const hidden = env ? ` (in app.json; ${env.variable} overrides it for now)` : '';
    problems.push(`${where}, option '${key}'${hidden}: ${detail.message}`);
  }
  const { error, value } = validate(options) ?? {};
  for (const detail of error?.details ?? []) {
    const key = detail.path.join('.');
    const variable = setBy(key)?.variable;
    const problem = `${where}, option '${key}'${variable ? ` (set by ${variable})` : ''}: ${detail.message}`;
    if (!problems.includes(problem)) problems.push(problem);
  }
  if (problems.length > 0) return { options: Object.freeze({}), problems, overrides };
  return { options: deepFreeze(value as object), problems: [], overrides };
}

export function throwIfProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
}

function getPath(source: Readonly<Record<string, unknown>>, path: string): unknown {
  let node: unknown = source;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
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
