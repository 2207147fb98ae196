import { Application } from '../application.js';
import { checkPluginConfig } from '../app/config-check.js';
import { planFromPlugins, type PluginChoice } from '../app/plan.js';
import { prepareDataDirectory } from '../data-directory.js';
import { ConfigError, describeError, KernelError, LifecycleError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import type { NodePaths } from '../paths.js';
import type { Environment, Plugin, RunMode } from '../plugin.js';
import type { CommandContext } from './plugin-command.js';

export interface CommandRunSettings {
  /** The plugins the mode lists (app.json's order), among them the command's plugin. */
  readonly plugins: readonly PluginChoice[];
  readonly plugin: string;
  readonly command: string;
  readonly args: CommandContext['args'];
  readonly flags: CommandContext['flags'];
  readonly print: (line: string) => void;
  readonly mode: RunMode;
  readonly network: string;
  readonly paths: NodePaths;
  readonly env: Environment;
  readonly logger: Logger;
}

/**
 * Runs a plugin's command as `kernel <plugin>:<command>` does: the plugin's required
 * dependencies (and theirs) registered and booted, the plugin itself registered but not
 * booted, then everything disposed whatever the command did. Options are validated and
 * configuration checked as at start, before anything is written.
 */
export async function runPluginCommand(settings: CommandRunSettings): Promise<void> {
  const { mode, network, paths, logger } = settings;
  const chosen = withRequiredDependencies(settings.plugins, settings.plugin, mode);
  const plugin = chosen.at(-1)?.plugin as Plugin<object>;
  const command = plugin.commands?.find(({ name }) => name === settings.command);
  if (!command) {
    throw new ConfigError(`plugin '${plugin.name}' has no command '${settings.command}'`);
  }
  const planned = planFromPlugins(chosen, mode, settings.env);
  await checkPluginConfig(planned, { paths, mode, network });
  const app = new Application({ mode, network, paths, logger }, planned);
  app.register();
  prepareDataDirectory(paths);
  await app.start({ except: plugin.name });

  const context = app.contextOf(plugin.name);
  let failure: unknown;
  try {
    await command.run({
      plugin: plugin.name,
      options: context.options,
      args: settings.args,
      flags: settings.flags,
      container: context.container,
      logger: context.logger,
      paths,
      mode,
      network,
      print: settings.print,
    });
  } catch (error) {
    failure = error;
  }
  const disposeFailures = await app.dispose(`command ${plugin.name}:${command.name} finished`);
  if (failure !== undefined) {
    if (failure instanceof KernelError) throw failure;
    throw new KernelError(
      'ERR_COMMAND',
      `${plugin.name}:${command.name} failed: ${describeError(failure)}`,
      { cause: failure },
    );
  }
  if (disposeFailures.length > 0) {
    const names = disposeFailures.map((disposal) => disposal.plugin).join(', ');
    throw new LifecycleError(`plugins failed to dispose: ${names}`, disposeFailures);
  }
}

/**
 * The plugin and every plugin it requires, directly or not, in app.json's order with the
 * plugin last (nothing it requires can require it: that is a cycle, refused at planning).
 */
function withRequiredDependencies(
  plugins: readonly PluginChoice[],
  name: string,
  mode: RunMode,
): PluginChoice[] {
  const byName = new Map(plugins.map((choice) => [choice.plugin.name, choice]));
  if (!byName.has(name)) {
    throw new ConfigError(`plugin '${name}' is not enabled in mode '${mode}'`);
  }
  const needed = new Set<string>();
  const visit = (current: string): void => {
    if (needed.has(current)) return;
    needed.add(current);
    for (const dependency of byName.get(current)?.plugin.dependsOn?.required ?? []) {
      // A required plugin missing from the mode is reported by planning, with the mode.
      if (byName.has(dependency)) visit(dependency);
    }
  };
  visit(name);
  const chosen = plugins.filter(({ plugin }) => needed.has(plugin.name) && plugin.name !== name);
  return [...chosen, byName.get(name) as PluginChoice];
}
