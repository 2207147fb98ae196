import type { Command } from 'commander';
import { loadEnvironment, resolvePaths } from '@lni/kernel';
import { DEFAULT_NETWORK, repositoryRoot } from '../networks.js';
import { withNetworkOfConfig } from '../node-location.js';
import { pluginsDirectory } from '../plugins/installed-plugins.js';
import { removePlugin } from '../plugins/remove-plugin.js';
import type { CommandResult } from '../program.js';

interface RemoveFlags {
  readonly network: string;
  readonly config?: string;
}

export function registerPluginRemove(program: Command, result: CommandResult): void {
  program
    .command('plugin:remove')
    .description('take a plugin out of app.json and uninstall it from <config>/plugins')
    .argument('<package>', 'the package name app.json lists (as plugin:add printed it)')
    .option('--network <name>', 'network of the node', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (default: per user, per network)')
    .action(async (name: string, flags: RemoveFlags, command: Command) => {
      const { network, ...where } = withNetworkOfConfig(flags, command);
      const configDir = resolvePaths(network, process.env, where).config;
      const outcome = await removePlugin({
        name,
        configDir,
        env: loadEnvironment(configDir),
        searchFrom: [process.cwd(), repositoryRoot],
      });
      const out = (line: string): boolean => process.stdout.write(`${line}\n`);
      if (outcome.modes.length > 0) {
        out(`Removed ${name} from ${outcome.appFile} (${outcome.modes.join(', ')})`);
      }
      if (outcome.uninstalled) out(`Uninstalled ${name} from ${pluginsDirectory(configDir)}`);
      if (outcome.modes.length > 0) {
        out(`Restart the nodes running ${outcome.modes.join(', ')} with this config directory`);
      }
      result.code = 0;
    });
}
