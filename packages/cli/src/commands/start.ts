import { Option, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  closeLogFiles,
  createLogger,
  exitOnSignals,
  LifecycleError,
  loadEnvironment,
  parseLogLevel,
  resolvePaths,
  RUN_MODES,
  prepareNode,
} from '@lni/kernel';
import { firstRun } from '../config/first-run.js';
import { DEFAULT_NETWORK, repositoryRoot } from '../networks.js';
import {
  checkNetworkRuns,
  runMode,
  withNetworkOfConfig,
  type NodeFlags,
} from '../node-location.js';
import type { CommandResult } from '../program.js';

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
    .action(async (flags: NodeFlags, command: Command) => {
      result.code = await start(withNetworkOfConfig(flags, command));
    });
}

async function start(flags: NodeFlags): Promise<number> {
  const configDir = resolvePaths(flags.network, process.env, flags).config;
  checkNetworkRuns(flags.network, configDir);
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
