import { dirname } from 'node:path';
import type { AppConfig } from '../app/app-config.js';
import { resolvePlugin } from '../app/plugin-resolver.js';
import { describeError } from '../errors.js';
import { RUN_MODES, type RunMode } from '../plugin.js';
import type { PluginCommand } from './plugin-command.js';

/** A command a plugin of app.json offers, with the modes that list the plugin. */
export interface OfferedCommand {
  readonly plugin: string;
  readonly command: PluginCommand;
  readonly modes: readonly RunMode[];
}

export interface CommandCatalog {
  readonly commands: readonly OfferedCommand[];
  /** Plugins that could not be loaded, one line each, for whoever asked for their command. */
  readonly problems: readonly string[];
}

/**
 * The commands of every plugin app.json lists in any mode. A plugin that fails to load does
 * not hide the others' commands: its problem is returned beside them.
 */
export async function catalogCommands(input: {
  readonly appConfig: AppConfig;
  readonly appFile: string;
  readonly searchFrom: readonly string[];
}): Promise<CommandCatalog> {
  const appDir = dirname(input.appFile);
  const offered = new Map<string, { plugin: string; command: PluginCommand; modes: RunMode[] }>();
  const problems = new Set<string>();
  for (const mode of RUN_MODES) {
    const where = `${input.appFile}, mode '${mode}'`;
    for (const entry of input.appConfig[mode]?.plugins ?? []) {
      try {
        const { plugin } = await resolvePlugin(entry.package, {
          appDir,
          searchFrom: input.searchFrom,
          where,
        });
        for (const command of plugin.commands ?? []) {
          const key = `${plugin.name}:${command.name}`;
          const known = offered.get(key) ?? { plugin: plugin.name, command, modes: [] };
          known.modes.push(mode);
          offered.set(key, known);
        }
      } catch (error) {
        problems.add(describeError(error));
      }
    }
  }
  return { commands: [...offered.values()], problems: [...problems] };
}
