import type { Logger } from '../logging/logger.js';
import type { NodePaths } from '../paths.js';
import type { Container, RunMode } from '../plugin.js';

/** A positional argument of a plugin command, in the order declared. */
export interface CommandArgument {
  readonly name: string;
  readonly description?: string;
  /** Required unless set to false. */
  readonly required?: boolean;
  /** Takes every remaining argument, as a list; only the last argument may. */
  readonly variadic?: boolean;
}

/** A flag of a plugin command, `--<name>`. */
export interface CommandOption {
  /** The flag without its dashes, in kebab-case: `dry-run` for `--dry-run`. */
  readonly name: string;
  readonly description?: string;
  /** The placeholder of its value (`--limit <count>`); without one the flag is a boolean. */
  readonly value?: string;
  readonly default?: string | boolean;
}

/** What a command's `run` receives. */
export interface CommandContext<Options extends object = object> {
  /** The name of the plugin the command belongs to. */
  readonly plugin: string;
  /** The plugin's options from app.json, validated as `kernel start` validates them. */
  readonly options: Options;
  /** The arguments by name; a variadic one is a list. */
  readonly args: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The flags by name as declared (`dry-run`), with their defaults applied. */
  readonly flags: Readonly<Record<string, string | boolean | undefined>>;
  /** The container: the plugin's own services are registered, its required dependencies booted. */
  readonly container: Container;
  readonly logger: Logger;
  readonly paths: NodePaths;
  readonly mode: RunMode;
  readonly network: string;
  /** Writes a line of the command's output (stdout), apart from the logs. */
  print(line: string): void;
}

/**
 * A command a plugin contributes to the `kernel` CLI, run as `kernel <plugin>:<name>`. It runs
 * with the plugin registered but not booted and its required dependencies booted; everything
 * is disposed after it returns.
 */
export interface PluginCommand<Options extends object = object> {
  readonly name: string;
  readonly description: string;
  readonly arguments?: readonly CommandArgument[];
  readonly options?: readonly CommandOption[];
  run(context: CommandContext<Options>): void | Promise<void>;
}
