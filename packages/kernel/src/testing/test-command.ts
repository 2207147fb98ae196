import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginChoice } from '../app/plan.js';
import type { CommandContext } from '../commands/plugin-command.js';
import { runPluginCommand } from '../commands/run-command.js';
import type { NodePaths } from '../paths.js';
import type { Environment, RunMode } from '../plugin.js';
import { captureLogs } from './captured-logs.js';

export interface TestCommandOptions {
  /** The plugins of the mode (the command's plugin and those it requires), with options. */
  readonly plugins: readonly PluginChoice[];
  readonly plugin: string;
  readonly command: string;
  readonly args?: CommandContext['args'];
  readonly flags?: CommandContext['flags'];
  readonly mode?: RunMode;
  readonly network?: string;
  readonly env?: Environment;
  /** Reuse directories; by default fresh temporary ones are made and removed. */
  readonly paths?: NodePaths;
}

export interface TestCommandResult {
  /** The lines the command printed. */
  readonly output: readonly string[];
  /** Every log record written while it ran. */
  readonly logs: readonly Record<string, unknown>[];
}

/**
 * Runs a plugin's command in-process as `kernel <plugin>:<command>` runs it (required
 * dependencies booted, the plugin registered, everything disposed after), capturing what it
 * prints. Rejects with the error the CLI would print.
 */
export async function runTestCommand(options: TestCommandOptions): Promise<TestCommandResult> {
  const ownDirectory = options.paths ? undefined : await mkdtemp(join(tmpdir(), 'lni-command-'));
  const paths = options.paths ?? {
    config: join(ownDirectory as string, 'config'),
    data: join(ownDirectory as string, 'data'),
    log: join(ownDirectory as string, 'data', 'logs', 'node.log'),
  };
  const { logger, records } = captureLogs('fatal');
  const output: string[] = [];
  try {
    await runPluginCommand({
      plugins: options.plugins,
      plugin: options.plugin,
      command: options.command,
      args: options.args ?? {},
      flags: options.flags ?? {},
      print: (line) => output.push(line),
      mode: options.mode ?? 'core',
      network: options.network ?? 'testnet',
      paths,
      env: options.env ?? {},
      logger,
    });
  } finally {
    if (ownDirectory) await rm(ownDirectory, { recursive: true, force: true });
  }
  return { output, logs: records };
}
