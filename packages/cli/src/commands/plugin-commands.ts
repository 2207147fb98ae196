import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  catalogCommands,
  ConfigError,
  createLogger,
  loadEnvironment,
  loadModePlugins,
  parseLogLevel,
  readAppConfig,
  resolvePaths,
  RUN_MODES,
  runPluginCommand,
  type CommandContext,
  type OfferedCommand,
  type RunMode,
} from '@lni/kernel';
import { DEFAULT_NETWORK, defaultAppFile, networkNameIn, repositoryRoot } from '../networks.js';
import {
  checkNetworkRuns,
  runMode,
  withNetworkOfConfig,
  type NodeFlags,
} from '../node-location.js';
import type { CommandResult } from '../program.js';

/**
 * Adds `kernel <plugin>:<command>` for each command of the plugins app.json lists (any mode).
 * The config directory is read from the command line before commander parses it, as each
 * command's `--config`/`--network` will name it.
 */
export async function registerPluginCommands(
  program: Command,
  result: CommandResult,
  argv: readonly string[],
): Promise<{ readonly problems: readonly string[]; readonly names: readonly string[] }> {
  const network = flagValue(argv, 'network');
  const config = flagValue(argv, 'config');
  const flags: NodeFlags = {
    network:
      network ?? (config !== undefined ? networkNameIn(config) : undefined) ?? DEFAULT_NETWORK,
    ...(config !== undefined && { config }),
  };
  const appFile = appFileOf(resolvePaths(flags.network, process.env, flags).config, flags.network);
  const catalog = await catalogCommands({
    appConfig: await readAppConfig(appFile),
    appFile,
    searchFrom: [process.cwd(), repositoryRoot],
  });
  const taken = new Set(program.commands.map((command) => command.name()));
  const problems = [...catalog.problems];
  for (const offered of catalog.commands) {
    const name = `${offered.plugin}:${offered.command.name}`;
    if (taken.has(name)) {
      problems.push(`plugin '${offered.plugin}' offers '${name}', a command of kernel itself`);
    } else {
      program.addCommand(pluginCommand(name, offered, result));
    }
  }
  return {
    problems,
    names: catalog.commands.map(({ plugin, command }) => `${plugin}:${command.name}`),
  };
}

/** The node's app.json, or the default one of the network before a first start wrote it. */
function appFileOf(configDir: string, network: string): string {
  const own = join(configDir, 'app.json');
  return existsSync(own) ? own : defaultAppFile(network);
}

function pluginCommand(name: string, offered: OfferedCommand, result: CommandResult): Command {
  const { command, plugin, modes } = offered;
  const cli = new Command(name).description(
    `${command.description} (plugin ${plugin}, in app.json's ${modes.join(', ')} mode${modes.length > 1 ? 's' : ''})`,
  );
  for (const argument of command.arguments ?? []) {
    const shown = `${argument.name}${argument.variadic ? '...' : ''}`;
    cli.argument(argument.required === false ? `[${shown}]` : `<${shown}>`, argument.description);
  }
  const declared = (command.options ?? []).map((option) => {
    const flag = new Option(
      `--${option.name}${option.value === undefined ? '' : ` <${option.value}>`}`,
      option.description,
    );
    if (option.default !== undefined) flag.default(option.default);
    cli.addOption(flag);
    return { name: option.name, key: flag.attributeName() };
  });
  cli
    .addOption(
      new Option(
        '--mode <mode>',
        `whose app.json options apply (default: CORE_MODE, else ${modes[0]})`,
      ).choices(RUN_MODES),
    )
    .option('--network <name>', 'network of the node', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (default: per user, per network)')
    .option('--data <dir>', 'data directory (default: per user, per network)')
    .action(async (...received: unknown[]) => {
      const self = received.at(-1) as Command;
      const values = self.opts<Record<string, string | boolean | undefined> & NodeFlags>();
      const flags: Record<string, string | boolean | undefined> = {};
      for (const { name: flag, key } of declared) flags[flag] = values[key];
      const args: Record<string, string | readonly string[] | undefined> = {};
      (command.arguments ?? []).forEach((argument, index) => {
        args[argument.name] = self.processedArgs[index] as string | string[] | undefined;
      });
      await run(offered, withNetworkOfConfig(values, self), { args, flags });
      result.code = 0;
    });
  return cli;
}

async function run(
  offered: OfferedCommand,
  flags: NodeFlags,
  input: Pick<CommandContext, 'args' | 'flags'>,
): Promise<void> {
  const configDir = resolvePaths(flags.network, process.env, flags).config;
  checkNetworkRuns(flags.network, configDir);
  const env = loadEnvironment(configDir);
  const mode: RunMode = runMode(flags.mode, env, configDir) ?? (offered.modes[0] as RunMode);
  const appFile = appFileOf(configDir, flags.network);
  const plugins = await loadModePlugins({
    appConfig: await readAppConfig(appFile),
    appFile,
    mode,
    searchFrom: [process.cwd(), repositoryRoot],
  });
  if (!plugins.some(({ plugin }) => plugin.name === offered.plugin)) {
    throw new ConfigError(`${appFile}: plugin '${offered.plugin}' is not in mode '${mode}'`);
  }
  await runPluginCommand({
    plugins,
    plugin: offered.plugin,
    command: offered.command.name,
    ...input,
    print: (line) => process.stdout.write(`${line}\n`),
    mode,
    network: flags.network,
    paths: resolvePaths(flags.network, env, flags),
    env,
    // The command's output is its own: the node's logs go to stderr, warnings and worse.
    logger: createLogger({
      level: parseLogLevel(env.CORE_LOG_LEVEL ?? 'warn'),
      out: process.stderr,
    }),
  });
}

/** `--name value` or `--name=value` from a command line not parsed yet. */
function flagValue(argv: readonly string[], name: string): string | undefined {
  for (const [index, token] of argv.entries()) {
    if (token === `--${name}`) return argv[index + 1];
    if (token.startsWith(`--${name}=`)) return token.slice(name.length + 3);
  }
  return undefined;
}
