import { readFile, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { parseAppConfig, RUN_MODES, type AppConfig, type PluginEntry } from '@lni/kernel';
import type { Backup } from './backup.js';
import { readEnvironment, setEnvironment } from './env-file.js';

/**
 * Puts the operator's settings back over freshly published defaults: delegate secrets, the
 * options of every plugin (and plugins the defaults do not list), and environment values.
 * Returns one line per thing kept; a setting equal to its default is not one.
 */
export async function reapplyBackup(configDir: string, backup: Backup): Promise<string[]> {
  const kept: string[] = [];
  if (backup.delegates) kept.push(...(await reapplyDelegates(configDir, backup.delegates)));
  if (backup.app) kept.push(...(await reapplyApp(configDir, backup.app)));
  if (backup.env) kept.push(...(await reapplyEnv(configDir, backup.env)));
  return kept;
}

async function reapplyDelegates(
  configDir: string,
  previous: Record<string, unknown>,
): Promise<string[]> {
  const file = join(configDir, 'delegates.json');
  const fresh = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  const merged = { ...fresh, ...previous };
  if (isDeepStrictEqual(merged, fresh)) return [];
  await writeFile(file, `${JSON.stringify(merged, null, 2)}\n`);
  const secrets = Array.isArray(previous.secrets) ? previous.secrets.length : 0;
  const others = Object.keys(previous).filter((key) => key !== 'secrets');
  return [`delegates.json: ${secrets} secret(s)${others.length ? `, ${others.join(', ')}` : ''}`];
}

async function reapplyApp(configDir: string, previous: AppConfig): Promise<string[]> {
  const file = join(configDir, 'app.json');
  const fresh = parseAppConfig(await readFile(file, 'utf8'), file);
  const kept: string[] = [];
  const merged: Record<string, { plugins: PluginEntry[] }> = {};
  for (const mode of RUN_MODES) {
    const freshPlugins = fresh[mode]?.plugins ?? [];
    const oldPlugins = previous[mode]?.plugins ?? [];
    const plugins = freshPlugins.map((entry) => {
      const old = oldPlugins.find((candidate) => candidate.package === entry.package);
      if (!old) return entry;
      const options = mergeOptions(entry.options, old.options);
      if (isDeepStrictEqual(options, entry.options)) return entry;
      kept.push(`app.json: options of ${entry.package} in ${mode}`);
      return { package: entry.package, options };
    });
    for (const old of oldPlugins) {
      if (!freshPlugins.some((entry) => entry.package === old.package)) {
        plugins.push(old);
        kept.push(`app.json: plugin ${old.package} in ${mode}`);
      }
    }
    if (fresh[mode] || previous[mode]) merged[mode] = { plugins };
  }
  await writeFile(file, `${JSON.stringify(merged, null, 2)}\n`);
  return kept;
}

/** The published .env keeps its comments; only the operator's own values are written into it. */
async function reapplyEnv(configDir: string, previous: Record<string, string>): Promise<string[]> {
  const file = join(configDir, '.env');
  const fresh = await readEnvironment(file);
  const changed = Object.fromEntries(
    Object.entries(previous).filter(([key, value]) => fresh[key] !== value),
  );
  const keys = Object.keys(changed);
  if (keys.length === 0) return [];
  await setEnvironment(file, changed);
  return [`.env: ${keys.join(', ')}`];
}

/** The operator's values win; objects merge so that options new in the defaults appear. */
function mergeOptions(
  defaults: Readonly<Record<string, unknown>>,
  operator: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(operator)) {
    const base = result[key];
    result[key] = isPlainObject(base) && isPlainObject(value) ? mergeOptions(base, value) : value;
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
