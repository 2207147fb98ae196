import type { Command } from 'commander';
import { join } from 'node:path';
import { ConfigError, RUN_MODES, type Environment, type RunMode } from '@lni/kernel';
import {
  holdsNetworkFiles,
  knownNetworks,
  networkNameIn,
  unknownNetworkError,
} from './networks.js';

/** The flags that say which node a command works on, as `start` takes them. */
export interface NodeFlags {
  readonly mode?: RunMode;
  readonly network: string;
  readonly config?: string;
  readonly data?: string;
}

/** Without --network, a --config directory that holds a network's files names the network. */
export function withNetworkOfConfig<F extends Pick<NodeFlags, 'network' | 'config'>>(
  flags: F,
  command: Command,
): F {
  if (command.getOptionValueSource('network') === 'cli' || flags.config === undefined) return flags;
  return { ...flags, network: networkNameIn(flags.config) ?? flags.network };
}

/** Nothing is written for a network that cannot run: neither shipped nor in the directory. */
export function checkNetworkRuns(network: string, configDir: string): void {
  if (!knownNetworks().includes(network) && !holdsNetworkFiles(configDir)) {
    throw new ConfigError(
      `${unknownNetworkError(network).message}; a network of your own runs from its files in ${join(configDir, 'crypto')} (see "Joining an existing network" in the README)`,
    );
  }
}

/**
 * The mode from --mode, else from CORE_MODE (so that a node whose .env records its mode, as
 * `network:start` writes it, restarts without the flag); undefined when neither says.
 */
export function runMode(
  flag: RunMode | undefined,
  env: Environment,
  configDir: string,
): RunMode | undefined {
  if (flag !== undefined) return flag;
  const value = env.CORE_MODE;
  if (value === undefined || value === '') return undefined;
  if (!(RUN_MODES as readonly string[]).includes(value)) {
    throw new ConfigError(
      `CORE_MODE (environment or ${join(configDir, '.env')}) must be one of ${RUN_MODES.join(', ')}, not '${value}'`,
    );
  }
  return value as RunMode;
}
