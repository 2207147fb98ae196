import { InvalidArgumentError, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadEnvironment, resolvePaths, RUN_MODES, type RunMode } from '@lni/kernel';
import { firstRun } from '../config/first-run.js';
import { DEFAULT_NETWORK, repositoryRoot } from '../networks.js';
import { checkNetworkRuns, withNetworkOfConfig } from '../node-location.js';
import { addPlugin } from '../plugins/add-plugin.js';
import { pluginsDirectory } from '../plugins/installed-plugins.js';
import type { CommandResult } from '../program.js';

interface AddFlags {
  readonly mode?: readonly RunMode[];
  readonly network: string;
  readonly config?: string;
}

export function registerPluginAdd(program: Command, result: CommandResult): void {
  program
    .command('plugin:add')
    .description(
      "install a plugin (a path, a tarball or an npm name) into <config>/plugins, check it and add it to app.json's modes",
    )
    .argument('<plugin>', 'a plugin package: its directory, its tarball, or its npm name')
    .option(
      '--mode <modes>',
      'the modes to add it to, comma-separated (default: every mode that runs its required dependencies)',
      modeList,
    )
    .option('--network <name>', 'network of the node', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (default: per user, per network)')
    .action(async (spec: string, flags: AddFlags, command: Command) => {
      const { network, ...where } = withNetworkOfConfig(flags, command);
      const configDir = resolvePaths(network, process.env, where).config;
      checkNetworkRuns(network, configDir);
      if (!existsSync(join(configDir, 'app.json'))) await firstRun(network, configDir);
      const outcome = await addPlugin({
        spec,
        configDir,
        env: loadEnvironment(configDir),
        ...(flags.mode && { modes: flags.mode }),
        cwd: process.cwd(),
        searchFrom: [process.cwd(), repositoryRoot],
      });
      const out = (line: string): boolean => process.stdout.write(`${line}\n`);
      const { name, version } = outcome.package;
      out(
        `Installed ${name}@${version} (plugin '${outcome.plugin}') into ${pluginsDirectory(configDir)}`,
      );
      if (outcome.listed.length > 0) {
        out(`Already in ${outcome.appFile} for ${outcome.listed.join(', ')}`);
      }
      if (outcome.added.length > 0) {
        out(`Added to ${outcome.appFile} for ${outcome.added.join(', ')}`);
      }
      if (outcome.skippedScripts.length > 0) {
        out(
          `npm skipped the install scripts of ${outcome.skippedScripts.join(', ')}; if the plugin needs them: cd ${pluginsDirectory(configDir)} && npm install-scripts approve <package> && npm rebuild <package>`,
        );
      }
      const modes = [...outcome.listed, ...outcome.added];
      out(
        `Restart the nodes running ${modes.join(', ')} with this config directory to load it (kernel start --mode ${modes[0]} --config ${configDir})`,
      );
      result.code = 0;
    });
}

function modeList(value: string): RunMode[] {
  const modes = value.split(',').map((mode) => mode.trim());
  for (const mode of modes) {
    if (!(RUN_MODES as readonly string[]).includes(mode)) {
      throw new InvalidArgumentError(`'${mode}' is not a mode (${RUN_MODES.join(', ')})`);
    }
  }
  return modes as RunMode[];
}
