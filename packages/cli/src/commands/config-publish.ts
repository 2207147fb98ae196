import type { Command } from 'commander';
import { resolvePaths } from '@lni/kernel';
import { publishConfig } from '../config/publish.js';
import { DEFAULT_NETWORK } from '../networks.js';
import type { CommandResult } from '../program.js';

interface PublishFlags {
  readonly network: string;
  readonly config?: string;
  readonly reset?: boolean;
}

export function registerConfigPublish(program: Command, result: CommandResult): void {
  program
    .command('config:publish')
    .description("write the network's default configuration into the config directory")
    .option('--network <name>', 'network whose defaults to write', DEFAULT_NETWORK)
    .option('--config <dir>', 'configuration directory (default: per user, per network)')
    .option(
      '--reset',
      'overwrite existing files, after backing up delegates.json, app.json and .env and re-applying them',
    )
    .action(async (flags: PublishFlags) => {
      const configDir = resolvePaths(flags.network, process.env, flags).config;
      const outcome = await publishConfig({
        network: flags.network,
        configDir,
        reset: flags.reset,
      });
      const out = (line: string): boolean => process.stdout.write(`${line}\n`);
      out(`Configuration of ${flags.network} in ${configDir}`);
      if (outcome.written.length) out(`  written: ${outcome.written.join(', ')}`);
      if (outcome.skipped.length) {
        out(`  kept existing (use --reset to replace): ${outcome.skipped.join(', ')}`);
      }
      if (outcome.backup) out(`  backup of the previous settings: ${outcome.backup.directory}`);
      for (const line of outcome.kept) out(`  re-applied ${line}`);
      result.code = 0;
    });
}
