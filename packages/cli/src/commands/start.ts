import { Option, type Command } from 'commander';
import { copyFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  closeLogFiles,
  ConfigError,
  createLogger,
  ensureWritableDirectory,
  exitOnSignals,
  LifecycleError,
  loadEnvironment,
  parseLogLevel,
  resolvePaths,
  RUN_MODES,
  prepareNode,
  type Environment,
  type RunMode,
} from '@lni/kernel';
import { publishConfig } from '../config/publish.js';
import {
  DEFAULT_NETWORK,
  defaultAppFile,
  holdsNetworkFiles,
  isShippedNetworkIn,
  knownNetworks,
  networkNameIn,
  repositoryRoot,
  unknownNetworkError,
} from '../networks.js';
import type { CommandResult } from '../program.js';

interface StartFlags {
  readonly mode?: RunMode;
  readonly network: string;
  readonly config?: string;
  readonly data?: string;
}

export function registerStart(program: Command, result: CommandResult): void {
  program
    .command('start')
    .description('run a node in the foreground until SIGINT or SIGTERM')
    .addOption(
      new Option(
        '--mode <mode>',
        "which plugins to run, as app.json lists them per mode (default: CORE_MODE, from the environment or the config directory's .env)",
      ).choices(RUN_MODES),
    )
    .option('--network <name>', 'network to join', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (default: per user, per network)')
    .option('--data <dir>', 'data directory (default: per user, per network)')
    .action(async (flags: StartFlags, command: Command) => {
      result.code = await start(withNetworkOfConfig(flags, command));
    });
}

/** Without --network, a --config directory that holds a network's files names the network. */
function withNetworkOfConfig(flags: StartFlags, command: Command): StartFlags {
  if (command.getOptionValueSource('network') === 'cli' || flags.config === undefined) return flags;
  return { ...flags, network: networkNameIn(flags.config) ?? flags.network };
}

async function start(flags: StartFlags): Promise<number> {
  const configDir = resolvePaths(flags.network, process.env, flags).config;
  // Nothing is written for a network that cannot run: neither shipped nor in the directory.
  if (!knownNetworks().includes(flags.network) && !holdsNetworkFiles(configDir)) {
    throw new ConfigError(
      `${unknownNetworkError(flags.network).message}; a network of your own runs from its files in ${join(configDir, 'crypto')} (see "Joining an existing network" in the README)`,
    );
  }
  const mode = runMode(flags.mode, loadEnvironment(configDir), configDir);
  if (mode === undefined) {
    process.stderr.write(
      `error: required option '--mode <mode>' not specified, and CORE_MODE is set neither in the environment nor in ${join(configDir, '.env')}\n`,
    );
    return 2;
  }
  if (!existsSync(join(configDir, 'app.json'))) await firstRun(flags.network, configDir);
  const env = loadEnvironment(configDir);
  const paths = resolvePaths(flags.network, env, flags);
  const logger = createLogger({ level: parseLogLevel(env.CORE_LOG_LEVEL) });

  const app = await prepareNode({
    mode,
    network: flags.network,
    paths,
    env,
    logger,
    searchFrom: [process.cwd(), repositoryRoot],
  });
  // Signals are handled from before boot, so one arriving mid-boot still stops cleanly.
  const stopped = new Promise<number>((resolve) => exitOnSignals(app, { exit: resolve }));
  // Plugins hold the event loop open with their servers; a node without any must still run.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  let code: number;
  try {
    await app.start();
    code = await stopped;
  } catch (error) {
    if (!(error instanceof LifecycleError)) throw error;
    logger.fatal({ err: error }, 'Node failed to start');
    process.stderr.write(`error: ${error.message}\n`);
    code = 1;
  } finally {
    clearInterval(keepAlive);
  }
  await closeLogFiles(logger);
  return code;
}

/**
 * A network this distribution ships gets its whole default configuration; any other network
 * (its crypto files already in the directory) gets only the default app.json of the modes.
 */
async function firstRun(network: string, configDir: string): Promise<void> {
  ensureWritableDirectory(configDir, 'config directory');
  if (isShippedNetworkIn(network, configDir)) {
    const published = await publishConfig({ network, configDir });
    process.stdout.write(
      `First run: published the default configuration of ${network} into ${configDir} (${published.written.join(', ')})\n`,
    );
    return;
  }
  await copyFile(defaultAppFile(network), join(configDir, 'app.json'));
  process.stdout.write(
    `First run: wrote the default app.json into ${configDir}; network ${network} runs on the crypto files there\n`,
  );
}

/**
 * The mode from --mode, else from CORE_MODE (so that a node whose .env records its mode, as
 * `network:start` writes it, restarts without the flag); undefined when neither says.
 */
function runMode(flag: RunMode | undefined, env: Environment, configDir: string) {
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
