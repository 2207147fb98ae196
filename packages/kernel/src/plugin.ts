import type { AwilixContainer } from 'awilix';
import type Logger from 'bunyan';
import type Joi from 'joi';
import type { AdminOperations } from './admin/admin-operations.js';
import type { StatusSections } from './admin/status-sections.js';
import type { PublicServices } from './announce/public-services.js';
import type { PluginCommand } from './commands/plugin-command.js';
import type { EventBus } from './events/event-bus.js';
import type { HealthChecks } from './health/health-checks.js';
import type { MetricsRegistry } from './metrics/metrics-registry.js';
import type { NodePaths } from './paths.js';

export type RunMode = 'core' | 'relay' | 'forger' | 'api';
/** `api`: the public API alone, on a read-only (possibly standby) database, beside a writer. */
export const RUN_MODES: readonly RunMode[] = ['core', 'relay', 'forger', 'api'];

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The services in the container, by name. The kernel registers its own; a plugin adds the
 * ones it provides by declaration merging, so the provider owns each name and its type:
 *
 *   declare module '@lni/kernel' { interface Cradle { blockStore: BlockStore } }
 *
 * At run time each name has one owner too: registering a name the kernel or another plugin
 * registered stops start-up, unless the plugin's definition lists it in `replaces`.
 */
export interface Cradle {
  readonly logger: Logger;
  readonly events: EventBus;
  /** Prometheus metrics: each plugin registers its own here (prom-client metrics' `registers`). */
  readonly metrics: MetricsRegistry;
  readonly paths: NodePaths;
  readonly mode: RunMode;
  readonly network: string;
  /** The checks `/health` runs: plugins add a check for what they own. */
  readonly healthChecks: HealthChecks;
  /** What the node announces to peers as its services (ARK's getStatus `config.plugins`). */
  readonly publicServices: PublicServices;
  /** What an operator can ask the running node over its admin socket (`kernel peers`, …). */
  readonly adminOperations: AdminOperations;
  /** The parts of `kernel status`: plugins add a section for what they own. */
  readonly statusSections: StatusSections;
}

export type Container = AwilixContainer<Cradle>;

export interface PluginDependencies {
  /** Plugins that must be enabled in the same mode; they register and boot first. */
  readonly required?: readonly string[];
  /** Plugins used when enabled; when present they register and boot first. */
  readonly optional?: readonly string[];
}

/** What the kernel hands a plugin in each phase. */
export interface PluginContext<Options extends object = object> {
  readonly name: string;
  /** Validated against the plugin's schema, defaults applied, deeply frozen. */
  readonly options: Options;
  /** The node's container; `register` accepts only names this plugin may own (see `replaces`). */
  readonly container: Container;
  /** A child logger carrying `{ plugin: name }`. */
  readonly logger: Logger;
  /** The node's event bus; a listener subscribed here that fails is logged naming this plugin. */
  readonly events: EventBus;
  readonly paths: NodePaths;
  readonly mode: RunMode;
  readonly network: string;
  /** Names of the plugins enabled in this mode, to know which optional dependencies are there. */
  readonly enabledPlugins: ReadonlySet<string>;
}

/** A port a plugin listens on; `option` is the dotted path of the option that sets the port. */
export interface ListeningPort {
  readonly option: string;
  readonly host: string;
  readonly port: number;
}

/** What a plugin's `checkConfig` sees: its validated options and where the node's files are. */
export interface ConfigCheckContext<Options extends object = object> {
  readonly options: Options;
  readonly paths: NodePaths;
  readonly mode: RunMode;
  readonly network: string;
}

/**
 * A plugin is a plain object exported by its package (default export or `plugin`).
 * `register` only wires services (no I/O), `boot` starts I/O, `dispose` releases; the kernel
 * calls them in dependency order and disposes in reverse.
 */
export interface Plugin<Options extends object = object> {
  readonly name: string;
  readonly dependsOn?: PluginDependencies;
  /**
   * Service names this plugin registers on purpose although another plugin (or the kernel)
   * provides them, e.g. `['transactionPool']`; the provider must register first (a dependency).
   * Any other name already taken stops start-up.
   */
  readonly replaces?: readonly string[];
  /** Commands offered by the CLI as `kernel <plugin>:<command>`. */
  readonly commands?: readonly PluginCommand<Options>[];
  /** Options from app.json; validated with every error reported before anything registers. */
  readonly configSchema?: Joi.ObjectSchema<Options>;
  /**
   * Environment variables that set options, `{ CORE_API_PORT: 'port' }` (dotted paths allowed).
   * They win over app.json so that operators and containers can override one value.
   */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * The TCP ports this plugin will listen on with these options. The kernel checks them with
   * the configuration, before anything starts: each free, and no two plugins on the same one.
   */
  listensOn?(options: Options): readonly ListeningPort[];
  /**
   * Checks the plugin's own files in the config directory (delegates.json, crypto files, …)
   * with the rest of the configuration, before anything is written: one line per problem,
   * naming the file, the key and the reason. Reads only; never writes or connects.
   */
  checkConfig?(
    context: ConfigCheckContext<Options>,
  ): readonly string[] | Promise<readonly string[]>;
  register(context: PluginContext<Options>): void;
  boot?(context: PluginContext<Options>): Promise<void>;
  dispose?(context: PluginContext<Options>): Promise<void>;
}

/** Identity helper that gives a plugin object its option type from its schema. */
export function definePlugin<Options extends object>(plugin: Plugin<Options>): Plugin<Options> {
  return plugin;
}
