import { InvalidArgumentError, Option, type Command } from 'commander';
import { RUN_MODES } from '@lni/kernel';
import { DEFAULT_NETWORK } from '../networks.js';

/** --mode, --network, --config and --data, as `db:migrate` takes them. */
export function addNodeOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--mode <mode>', 'whose database plugin options in app.json apply')
        .choices(RUN_MODES)
        .default('core'),
    )
    .option('--network <name>', 'network of the node', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (its .env holds CORE_DB_*)')
    .option('--data <dir>', 'data directory (holds the embedded database)');
}

export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError(`expected a positive integer, got '${value}'`);
  }
  return parsed;
}
