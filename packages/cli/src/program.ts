import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { ConfigError, KernelError, shareNodePackages } from '@lni/kernel';
import { registerAdminCommands } from './commands/admin-commands.js';
import { registerConfigPublish } from './commands/config-publish.js';
import { registerNetworkGenerate } from './commands/network-generate.js';
import { registerNetworkStart } from './commands/network-start.js';
import { registerDbMigrate } from './commands/db-migrate.js';
import { registerDbBackup } from './commands/db-backup.js';
import { registerDbRollback } from './commands/db-rollback.js';
import { registerSnapshotCreate } from './commands/snapshot-create.js';
import { registerSnapshotRestore } from './commands/snapshot-restore.js';
import { registerPluginAdd } from './commands/plugin-add.js';
import { registerPluginCommands } from './commands/plugin-commands.js';
import { registerPluginNew } from './commands/plugin-new.js';
import { registerPluginRemove } from './commands/plugin-remove.js';
import { registerStart } from './commands/start.js';
import { repositoryRoot } from './networks.js';

/** Exit code a command sets; usage mistakes exit with 2 as Unix tools do. */
export interface CommandResult {
  code: number;
}

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

export function createProgram(result: CommandResult): Command {
  const program = new Command('kernel')
    .description(
      'LNI node: start a node in core, relay, forger or api mode and manage its configuration',
    )
    .version(version)
    .exitOverride()
    .allowExcessArguments(false);
  registerStart(program, result);
  registerConfigPublish(program, result);
  registerNetworkGenerate(program, result);
  registerNetworkStart(program, result);
  registerDbMigrate(program, result);
  registerDbRollback(program, result);
  registerDbBackup(program, result);
  registerSnapshotCreate(program, result);
  registerSnapshotRestore(program, result);
  registerPluginNew(program, result);
  registerPluginAdd(program, result);
  registerPluginRemove(program, result);
  registerAdminCommands(program, result);
  return program;
}

/** Runs the command line and resolves with the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // Plugins outside the installation import the node's own @lni/*, awilix and joi.
  shareNodePackages({ installation: repositoryRoot, resolveFrom: [import.meta.url] });
  const result: CommandResult = { code: 0 };
  const program = createProgram(result);
  try {
    await addPluginCommands(program, result, argv);
    await program.parseAsync(argv);
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof KernelError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * Plugins' commands are loaded only when they can matter: for `kernel <plugin>:<command>`,
 * and for the help that lists them. A plugin that cannot load is reported to whoever runs its
 * command; help still lists the others and says what is missing.
 */
async function addPluginCommands(
  program: Command,
  result: CommandResult,
  argv: readonly string[],
): Promise<void> {
  const first = argv[2];
  const builtIn = program.commands.some((command) => command.name() === first);
  if (first !== undefined && first.includes(':') && !builtIn) {
    const { names, problems } = await registerPluginCommands(program, result, argv);
    if (!names.includes(first) && problems.length > 0) throw new ConfigError(problems.join('\n'));
    return;
  }
  if (first !== undefined && !['help', '--help', '-h'].includes(first)) return;
  try {
    const { problems } = await registerPluginCommands(program, result, argv);
    for (const problem of problems) process.stderr.write(`note: ${problem}\n`);
  } catch (error) {
    if (!(error instanceof KernelError)) throw error;
    process.stderr.write(`note: the plugins' commands are not listed: ${error.message}\n`);
  }
}
