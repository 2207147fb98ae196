import { join } from 'node:path';
import { Application } from './application.js';
import { readAppConfig } from './app/app-config.js';
import { checkPluginConfig } from './app/config-check.js';
import { planFromAppConfig } from './app/plan.js';
import { checkListeningPorts, type OwnPort } from './app/port-check.js';
import { prepareDataDirectory } from './data-directory.js';
import { deferLogFile, type Logger } from './logging/logger.js';
import type { NodePaths } from './paths.js';
import type { Environment, RunMode } from './plugin.js';

export interface NodeSettings {
  readonly mode: RunMode;
  readonly network: string;
  readonly paths: NodePaths;
  readonly env: Environment;
  readonly logger: Logger;
  /** Defaults to `<config dir>/app.json`. */
  readonly appFile?: string;
  /** Where plugin packages are resolved from after the directory of app.json. */
  readonly searchFrom?: readonly string[];
  /** Ports the node listens on besides its plugins' (the admin's HTTP), checked with theirs. */
  readonly ownPorts?: readonly OwnPort[];
}

/**
 * Plans the mode's plugins from app.json, runs their configuration checks and registers them
 * (every configuration and wiring mistake surfaces here, before anything is written), then
 * prepares the data directory and opens the log file. The caller installs its signal handling and
 * calls `start()`, so that a signal during boot already stops the node cleanly.
 */
export async function prepareNode(settings: NodeSettings): Promise<Application> {
  const appFile = settings.appFile ?? join(settings.paths.config, 'app.json');
  const appConfig = await readAppConfig(appFile);
  const plugins = await planFromAppConfig({
    appConfig,
    appFile,
    mode: settings.mode,
    env: settings.env,
    searchFrom: settings.searchFrom ?? [process.cwd()],
  });

  const node = { paths: settings.paths, mode: settings.mode, network: settings.network };
  await checkPluginConfig(plugins, node);
  await checkListeningPorts(plugins, { mode: settings.mode, env: settings.env }, settings.ownPorts);
  // Plugins' loggers are made as they register: the log file must be among their streams.
  const logFile = deferLogFile(settings.logger);
  const app = new Application(settings, plugins);
  // Wiring only: a service name taken twice stops start-up here, with nothing written.
  app.register();

  prepareDataDirectory(settings.paths);
  logFile.open(settings.paths.log);
  settings.logger.info(
    {
      mode: settings.mode,
      network: settings.network,
      config: settings.paths.config,
      data: settings.paths.data,
      log: settings.paths.log,
      plugins: plugins.map(({ plugin }) => plugin.name),
    },
    'Starting node',
  );
  for (const { plugin, overrides } of plugins) {
    for (const { option, variable } of overrides) {
      settings.logger.info(
        { plugin: plugin.name, option, variable },
        'Option set in app.json is replaced by the environment',
      );
    }
  }
  return app;
}
