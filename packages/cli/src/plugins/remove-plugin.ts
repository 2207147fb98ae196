import {
  ConfigError,
  describeError,
  loadModePlugins,
  parseAppConfig,
  planFromPlugins,
  RUN_MODES,
  type AppConfig,
  type Environment,
  type RunMode,
} from '@lni/kernel';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeFromMode } from './app-json-edit.js';
import { isInstalled, uninstallPlugin } from './installed-plugins.js';

export interface RemoveSettings {
  /** The package as app.json lists it (what `plugin:add` printed). */
  readonly name: string;
  readonly configDir: string;
  readonly env: Environment;
  readonly searchFrom: readonly string[];
}

export interface RemoveOutcome {
  readonly appFile: string;
  readonly modes: readonly RunMode[];
  /** Whether it was installed by `plugin:add` and is now uninstalled. */
  readonly uninstalled: boolean;
}

/**
 * Takes a package out of every mode of app.json, unless a plugin left in a mode requires it,
 * then uninstalls it from `<config>/plugins` if `plugin:add` installed it there.
 */
export async function removePlugin(settings: RemoveSettings): Promise<RemoveOutcome> {
  const appFile = join(settings.configDir, 'app.json');
  let text = await readFile(appFile, 'utf8');
  const appConfig = parseAppConfig(text, appFile);
  const modes = RUN_MODES.filter((mode) =>
    appConfig[mode]?.plugins.some((entry) => entry.package === settings.name),
  );
  const installed = isInstalled(settings.name, settings.configDir);
  if (modes.length === 0 && !installed) {
    throw new ConfigError(
      `'${settings.name}' is neither in ${appFile} nor installed in ${join(settings.configDir, 'plugins')}`,
    );
  }
  for (const mode of modes) await checkNothingRequires(appConfig, appFile, mode, settings);
  for (const mode of modes) {
    const index = parseAppConfig(text, appFile)[mode]?.plugins.findIndex(
      (entry) => entry.package === settings.name,
    );
    text = removeFromMode(text, mode, index ?? -1);
  }
  await writeFile(appFile, text);
  if (installed) await uninstallPlugin(settings.name, settings.configDir);
  return { appFile, modes, uninstalled: installed };
}

/** Plans the mode without the package: a plugin that requires it is reported, with the mode. */
async function checkNothingRequires(
  appConfig: AppConfig,
  appFile: string,
  mode: RunMode,
  settings: RemoveSettings,
): Promise<void> {
  const plugins = appConfig[mode]?.plugins.filter((entry) => entry.package !== settings.name);
  const without: AppConfig = { ...appConfig, [mode]: { plugins } };
  try {
    const choices = await loadModePlugins({
      appConfig: without,
      appFile,
      mode,
      searchFrom: settings.searchFrom,
    });
    planFromPlugins(choices, mode, settings.env);
  } catch (error) {
    throw new ConfigError(`'${settings.name}' cannot be removed: ${describeError(error)}`, {
      cause: error,
    });
  }
}
