import { Option, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  attachLogRing,
  closeLogFiles,
  ConfigError,
  createLogger,
  exitOnSignals,
  ADMIN_HTTP_HOST,
  describeError,
  LifecycleError,
  loadEnvironment,
  parseLogLevel,
  resolvePaths,
  RUN_MODES,
  prepareAdminSocket,
  prepareNode,
  startNodeAdmin,
  type Application,
  type Environment,
  type LogRing,
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
  const ring = attachLogRing(logger);
  const adminHttpPort = parseAdminHttpPort(env);

  // Before anything starts: another node on this data directory, or a path too long for a socket.
  await prepareAdminSocket(paths.data);
  const app = await prepareNode({
    mode,
    network: flags.network,
    paths,
    env,
    logger,
    searchFrom: [process.cwd(), repositoryRoot],
    ownPorts:
      adminHttpPort === undefined
        ? []
        : [
            {
              host: ADMIN_HTTP_HOST,
              port: adminHttpPort,
              setBy: 'the admin over HTTP (CORE_ADMIN_HTTP_PORT)',
            },
          ],
  });
  // Signals are handled from before boot, so one arriving mid-boot still stops cleanly.
  const stopped = new Promise<number>((resolve) => exitOnSignals(app, { exit: resolve }));
  // Plugins hold the event loop open with their servers; a node without any must still run.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  let code: number;
  try {
    await app.start();
    await startAdmin(app, ring, adminHttpPort);
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
 * The admin socket of the running node (`kernel status`, `kernel peers`, …), closed as the node
 * starts to stop. If it cannot start, the node stops: an operator must be able to reach it.
 */
async function startAdmin(app: Application, ring: LogRing, httpPort: number | undefined) {
  try {
    const admin = await startNodeAdmin(app, {
      ring,
      // The same clean stop as SIGTERM, with its exit code.
      stop: () => process.kill(process.pid, 'SIGTERM'),
      ...(httpPort !== undefined && { httpPort }),
    });
    app.events.on('kernel.disposing', () => admin.stop());
  } catch (error) {
    await app.dispose('the admin socket could not start');
    throw new LifecycleError(`the admin interface could not start: ${describeError(error)}`, []);
  }
}

/** CORE_ADMIN_HTTP_PORT: also serve the admin on 127.0.0.1 at this port, with a token. */
function parseAdminHttpPort(env: Environment): number | undefined {
  const value = env.CORE_ADMIN_HTTP_PORT;
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new ConfigError(`CORE_ADMIN_HTTP_PORT must be a port number (1-65535), not '${value}'`);
  }
  return port;
}
