import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  Application,
  closeLogFiles,
  createLogger,
  loadEnvironment,
  loadModePlugins,
  planFromPlugins,
  parseLogLevel,
  readAppConfig,
  resolvePaths,
  RUN_MODES,
  type Environment,
  type Logger,
  type NodePaths,
  type RunMode,
} from '@lni/kernel';
import {
  Database,
  databaseOptionsFromEnvironment,
  migrateDatabase,
  type OwnedMigrations,
  type UpgradeProgress,
} from '@lni/database';
import type {} from '@lni/database/contracts';
import { DEFAULT_NETWORK, defaultAppFile, repositoryRoot } from '../networks.js';
import type { CommandResult } from '../program.js';

interface MigrateFlags {
  readonly mode: RunMode;
  readonly network: string;
  readonly config?: string;
  readonly data?: string;
  readonly batchRows: number;
}

export function registerDbMigrate(program: Command, result: CommandResult): void {
  program
    .command('db:migrate')
    .description(
      'apply database migrations; upgrades a 2.7 database in place in resumable batches (stop the node first)',
    )
    .addOption(
      new Option('--mode <mode>', 'whose database plugin options in app.json apply')
        .choices(RUN_MODES)
        .default('core'),
    )
    .option('--network <name>', 'network of the node', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (its .env holds CORE_DB_*)')
    .option('--data <dir>', 'data directory (holds the embedded database)')
    .addOption(
      new Option('--batch-rows <n>', 'transactions copied per committed batch of the 2.7 upgrade')
        .argParser(positiveInteger)
        .default(50_000),
    )
    .action(async (flags: MigrateFlags) => {
      result.code = await migrate(flags);
    });
}

async function migrate(flags: MigrateFlags): Promise<number> {
  const configDir = resolvePaths(flags.network, process.env, flags).config;
  const env = loadEnvironment(configDir);
  const paths = resolvePaths(flags.network, env, flags);
  const logger = createLogger({ level: parseLogLevel(env.CORE_LOG_LEVEL), out: process.stderr });
  const database = new Database({
    logger,
    databaseOptions: databaseOptionsFromEnvironment(env, await appOptions(configDir, flags.mode)),
    dataDirectory: paths.data,
  });
  const schema = await pluginSchema(configDir, flags, env, paths, logger);
  const progress = progressReporter(logger, process.stderr.isTTY === true);
  // The first Ctrl-C stops the 2.7 upgrade after the batch in flight; past its last batch the
  // run finishes (each later step commits whole, so killing it loses nothing the next run
  // would not redo). A second Ctrl-C kills as usual.
  const interruption = new AbortController();
  let finishing = false;
  const interrupt = () => {
    interruption.abort();
    process.stderr.write(
      finishing
        ? '\nPast the last batch: finishing the upgrade, it cannot stop now (Ctrl-C again to kill; the next run completes it)\n'
        : '\nStopping after the current batch (Ctrl-C again to kill)\n',
    );
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    await database.open();
    const outcome = await migrateDatabase(database, {
      logger,
      ...(schema && { schema }),
      batchRows: flags.batchRows,
      onProgress: progress.update,
      signal: interruption.signal,
      onFinishing: () => {
        finishing = true;
      },
    });
    progress.stop();
    const upgraded =
      outcome.upgradedRows === undefined
        ? ''
        : `upgraded ${outcome.upgradedRows} transactions from 2.7; `;
    process.stdout.write(
      `Database ${database.description}: ${upgraded}${outcome.applied.length} migration(s) applied${outcome.applied.length ? ` (${outcome.applied.join(', ')})` : ''}\n`,
    );
    if (interruption.signal.aborted) {
      process.stderr.write(
        'Interrupted after the last batch: the upgrade was completed, not stopped; the database is ready\n',
      );
    }
    return 0;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    progress.stop();
    await database.close();
    await closeLogFiles(logger);
  }
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError('expected a positive integer');
  }
  return parsed;
}

/**
 * Every plugin's migrations, as the node of `mode` would run them at start: the plugins app.json
 * lists (the config directory's, else the network's default) are registered (wiring only,
 * nothing is booted or written) and the database plugin's schema registry read.
 */
export async function pluginSchema(
  configDir: string,
  flags: Pick<MigrateFlags, 'mode' | 'network'>,
  env: Environment,
  paths: NodePaths,
  logger: Logger,
): Promise<readonly OwnedMigrations[] | undefined> {
  const own = join(configDir, 'app.json');
  const appFile = existsSync(own) ? own : defaultAppFile(flags.network);
  const choices = await loadModePlugins({
    appConfig: await readAppConfig(appFile),
    appFile,
    mode: flags.mode,
    searchFrom: [process.cwd(), repositoryRoot],
  });
  const app = new Application(
    { mode: flags.mode, network: flags.network, paths, logger },
    planFromPlugins(choices, flags.mode, env),
  );
  app.register();
  const { container } = app;
  return container.hasRegistration('schemaRegistry')
    ? container.cradle.schemaRegistry.migrations()
    : undefined;
}

/** The database plugin's options of `mode` in the config directory's app.json, if any. */
async function appOptions(configDir: string, mode: RunMode): Promise<Record<string, unknown>> {
  const file = join(configDir, 'app.json');
  if (!existsSync(file)) return {};
  const app = await readAppConfig(file);
  const entry = app[mode]?.plugins.find((plugin) => plugin.package === '@lni/database');
  return { ...entry?.options };
}

/** A progress bar on a terminal; elsewhere a log line every few seconds with rate and ETA. */
function progressReporter(logger: Logger, tty: boolean) {
  const started = Date.now();
  let firstRows: number | undefined;
  let bar: SingleBar | undefined;
  let lastLog = 0;
  return {
    update(progress: UpgradeProgress) {
      firstRows ??= progress.rowsDone;
      if (tty) {
        if (!bar) {
          bar = new SingleBar({
            format:
              'Upgrading 2.7 transactions |{bar}| {percentage}% | {value}/{total} rows | {speed} rows/s | ETA {eta_formatted}',
            etaBuffer: 20,
          });
          bar.start(progress.rowsTotal, progress.rowsDone, { speed: 0 });
        }
        bar.setTotal(progress.rowsTotal);
        bar.update(progress.rowsDone, { speed: Math.round(rate(progress.rowsDone)) });
        return;
      }
      const now = Date.now();
      if (now - lastLog < 5_000 && progress.rowsDone < progress.rowsTotal) return;
      lastLog = now;
      const rowsPerSecond = rate(progress.rowsDone);
      const left = progress.rowsTotal - progress.rowsDone;
      logger.info(
        {
          rowsDone: progress.rowsDone,
          rowsTotal: progress.rowsTotal,
          height: progress.height,
          rowsPerSecond: Math.round(rowsPerSecond),
          etaSeconds: rowsPerSecond > 0 ? Math.ceil(left / rowsPerSecond) : null,
        },
        '2.7 upgrade progress',
      );
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };

  function rate(rowsDone: number): number {
    const seconds = (Date.now() - started) / 1000;
    return seconds > 0 ? (rowsDone - (firstRows ?? 0)) / seconds : 0;
  }
}
