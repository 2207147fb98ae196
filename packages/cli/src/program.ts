import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { KernelError } from '@lni/kernel';
import { registerConfigPublish } from './commands/config-publish.js';
import { registerNetworkGenerate } from './commands/network-generate.js';
import { registerNetworkStart } from './commands/network-start.js';
import { registerDbMigrate } from './commands/db-migrate.js';
import { registerStart } from './commands/start.js';

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
      'LNI node: start a node in core, relay or forger mode and manage its configuration',
    )
    .version(version)
    .exitOverride()
    .allowExcessArguments(false);
  registerStart(program, result);
  registerConfigPublish(program, result);
  registerNetworkGenerate(program, result);
  registerNetworkStart(program, result);
  registerDbMigrate(program, result);
  return program;
}

/** Runs the command line and resolves with the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const result: CommandResult = { code: 0 };
  const program = createProgram(result);
  try {
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
