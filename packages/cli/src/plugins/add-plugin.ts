import {
  ConfigError,
  describeError,
  loadModePlugins,
  parseAppConfig,
  planFromPlugins,
  resolvePlugin,
  RUN_MODES,
  type AppConfig,
  type Environment,
  type Plugin,
  type RunMode,
} from '@lni/kernel';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appendToModes } from './app-json-edit.js';
import {
  installPlugin,
  isInstalled,
  packageOf,
  pluginsDirectory,
  uninstallPlugin,
  type PackageId,
} from './installed-plugins.js';

export interface AddSettings {
  /** A path to a plugin package, a tarball, or an npm name. */
  readonly spec: string;
  readonly configDir: string;
  readonly env: Environment;
  /** The modes to add it to; by default every mode that runs all its required dependencies. */
  readonly modes?: readonly RunMode[];
  /** Where the user ran the command, for relative paths. */
  readonly cwd: string;
  /** Where the node's own plugin packages resolve from. */
  readonly searchFrom: readonly string[];
}

export interface AddOutcome {
  readonly package: PackageId;
  readonly plugin: string;
  readonly appFile: string;
  readonly added: readonly RunMode[];
  /** Modes that listed the package already. */
  readonly listed: readonly RunMode[];
  /** Dependencies whose install scripts npm skipped, not allowed by `allowScripts`. */
  readonly skippedScripts: readonly string[];
}

/**
 * Installs a plugin where the node resolves plugins, loads it, checks it against each mode as
 * start would (its default options, its required dependencies, the kernel range it supports)
 * and adds it to app.json. A plugin that fits no mode asked for is uninstalled again.
 */
export async function addPlugin(settings: AddSettings): Promise<AddOutcome> {
  const appFile = join(settings.configDir, 'app.json');
  const text = await readFile(appFile, 'utf8');
  const appConfig = parseAppConfig(text, appFile);
  const id = await packageOf(settings.spec, settings.cwd);
  const wasInstalled = isInstalled(id.name, settings.configDir);
  const skippedScripts = await installPlugin(settings.spec, settings.configDir, settings.cwd);
  try {
    const { plugin } = await resolvePlugin(id.name, {
      appDir: settings.configDir,
      searchFrom: settings.searchFrom,
      where: `${id.name}@${id.version} in ${pluginsDirectory(settings.configDir)}`,
    });
    const listed = RUN_MODES.filter((mode) =>
      appConfig[mode]?.plugins.some((entry) => entry.package === id.name),
    );
    const added = await chooseModes(plugin, appConfig, appFile, settings, listed);
    await writeFile(appFile, appendToModes(text, id.name, added));
    return { package: id, plugin: plugin.name, appFile, added, listed, skippedScripts };
  } catch (error) {
    if (!wasInstalled) await uninstallPlugin(id.name, settings.configDir);
    throw error;
  }
}

/** The modes asked for, or every mode it can run in; each checked as start would plan it. */
async function chooseModes(
  plugin: Plugin<object>,
  appConfig: AppConfig,
  appFile: string,
  settings: AddSettings,
  listed: readonly RunMode[],
): Promise<RunMode[]> {
  const candidates = (settings.modes ?? RUN_MODES).filter((mode) => !listed.includes(mode));
  const fits: RunMode[] = [];
  const problems: string[] = [];
  for (const mode of candidates) {
    if (!appConfig[mode]) {
      if (settings.modes) problems.push(`${appFile} defines no mode '${mode}'`);
      continue;
    }
    try {
      const choices = await loadModePlugins({
        appConfig,
        appFile,
        mode,
        searchFrom: settings.searchFrom,
      });
      planFromPlugins([...choices, { plugin, source: plugin.name }], mode, settings.env);
      fits.push(mode);
    } catch (error) {
      // The kernel's planning errors name the mode already.
      problems.push(describeError(error));
    }
  }
  const refused = settings.modes ? problems.length > 0 : fits.length === 0 && listed.length === 0;
  if (refused) {
    throw new ConfigError(
      `plugin '${plugin.name}' cannot be added: ${problems.join('; ') || `${appFile} defines no mode`}`,
    );
  }
  return fits;
}
