import type { Command } from 'commander';
import { adminSocketPath, loadEnvironment, resolvePaths } from '@lni/kernel';
import { DEFAULT_NETWORK } from '../networks.js';
import { withNetworkOfConfig } from '../node-location.js';
import { AdminClient } from './admin-client.js';

/** The flags every admin command takes: which node, and JSON output for scripts. */
export interface AdminFlags {
  readonly network: string;
  readonly config?: string;
  readonly data?: string;
  readonly json?: boolean;
}

/** Adds --network, --config, --data and --json, as `kernel start` takes the first three. */
export function withNodeFlags(command: Command): Command {
  return command
    .option('--network <name>', 'network of the node', DEFAULT_NETWORK)
    .option(
      '--config <dir>',
      'configuration directory of the node (its .env may set CORE_PATH_DATA)',
    )
    .option('--data <dir>', 'data directory of the node, where admin.sock is')
    .option('--json', 'print the answer as JSON, for scripts');
}

/**
 * The running node's admin client, found as `kernel start` finds its data directory: --data,
 * else CORE_PATH_DATA (environment, then the config directory's .env), else the per-user default.
 */
export function adminClientFor(flags: AdminFlags, command: Command): AdminClient {
  const located = withNetworkOfConfig(flags, command);
  const configDir = resolvePaths(located.network, process.env, located).config;
  const paths = resolvePaths(located.network, loadEnvironment(configDir), located);
  return new AdminClient({ socketPath: adminSocketPath(paths.data), network: located.network });
}
