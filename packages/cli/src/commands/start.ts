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
  type RunMode,
} from '@lni/kernel';
import { publishConfig } from '../config/publish.js';
import { DEFAULT_NETWORK, repositoryRoot } from '../networks.js';
import type { CommandResult } from '../program.js';

interface StartFlags {
  readonly mode: RunMode;
  readonly network: string;
  readonly config?: string;
  readonly data?: string;
}

export function registerStart(program: Command, result: CommandResult): void {
  program
    .command('start')
    .description('run a node in the foreground until SIGINT or SIGTERM')
    .addOption(
      new Option('--mode <mode>', 'which plugins to run, as app.json lists them per mode')
        .choices(RUN_MODES)
        .makeOptionMandatory(),
    )
    .option('--network <name>', 'network to join', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (default: per user, per network)')
    .option('--data <dir>', 'data directory (default: per user, per network)')
    .action(async (flags: StartFlags) => {
      result.code = await start(flags);
    });
}

async function start(flags: StartFlags): Promise<number> {
  const configDir = resolvePaths(flags.network, process.env, flags).config;
  if (!existsSync(join(configDir, 'app.json'))) {
    const published = await publishConfig({ network: flags.network, configDir });
    process.stdout.write(
      `First run: published the default configuration of ${flags.network} into ${configDir} (${published.written.join(', ')})\n`,
    );
  }
  const env = loadEnvironment(configDir);
  const paths = resolvePaths(flags.network, env, flags);
  const logger = createLogger({ level: parseLogLevel(env.CORE_LOG_LEVEL) });

  const app = await prepareNode({
    mode: flags.mode,
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
