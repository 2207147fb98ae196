import { asValue, createContainer, InjectionMode } from 'awilix';
import { AdminOperations } from './admin/admin-operations.js';
import { StatusSections } from './admin/status-sections.js';
import { PublicServices } from './announce/public-services.js';
import { pluginContainer } from './container/plugin-container.js';
import { ServiceOwners, type ServiceReplacement } from './container/service-owners.js';
import {
  describeError,
  LifecycleError,
  RegistrationError,
  ServiceError,
  type PluginFailure,
} from './errors.js';
import { EventBus } from './events/event-bus.js';
import { HealthChecks } from './health/health-checks.js';
import { createMetricsRegistry } from './metrics/metrics-registry.js';
import type { PluginInstance } from './app/plan.js';
import type { Logger } from './logging/logger.js';
import type { NodePaths } from './paths.js';
import type { Container, Cradle, PluginContext, RunMode } from './plugin.js';

export interface ApplicationSettings {
  readonly mode: RunMode;
  readonly network: string;
  readonly paths: NodePaths;
  readonly logger: Logger;
}

export interface BootOptions {
  /** A plugin to leave registered but not booted: the one whose command runs. */
  readonly except?: string;
}

type Phase = 'created' | 'registered' | 'booted' | 'disposed';

/**
 * Runs planned plugins through their lifecycle: register all in order, boot in order, dispose
 * in reverse. Disposing is idempotent and collects every failure instead of stopping at one.
 * It keeps who owns each service name, so that no plugin overwrites another's by accident.
 */
export class Application {
  readonly container: Container;
  readonly events: EventBus;
  private readonly owners: ServiceOwners;
  private readonly replacements: ServiceReplacement[] = [];
  private readonly contexts = new Map<string, PluginContext<object>>();
  private readonly started: PluginInstance[] = [];
  private phase: Phase = 'created';
  private disposal: Promise<readonly PluginFailure[]> | undefined;
  private bootStep: Promise<void> | undefined;

  constructor(
    private readonly settings: ApplicationSettings,
    readonly plugins: readonly PluginInstance[],
  ) {
    this.events = new EventBus(settings.logger);
    this.container = createContainer<Cradle>({ injectionMode: InjectionMode.PROXY, strict: true });
    const kernelServices = {
      logger: asValue(settings.logger),
      events: asValue(this.events),
      metrics: asValue(createMetricsRegistry()),
      paths: asValue(settings.paths),
      mode: asValue(settings.mode),
      network: asValue(settings.network),
      healthChecks: asValue(new HealthChecks()),
      publicServices: asValue(new PublicServices()),
      adminOperations: asValue(new AdminOperations()),
      statusSections: asValue(new StatusSections()),
    };
    this.container.register(kernelServices);
    this.owners = new ServiceOwners(Object.keys(kernelServices));
  }

  get logger(): Logger {
    return this.settings.logger;
  }

  /** What a registered plugin was handed (its command runs with the same). */
  contextOf(plugin: string): PluginContext<object> {
    const context = this.contexts.get(plugin);
    if (!context) throw new Error(`plugin '${plugin}' is not registered`);
    return context;
  }

  /** Registers (unless done already) then boots every plugin; on a failure disposes what booted. */
  async start(options: BootOptions = {}): Promise<void> {
    if (this.phase === 'created') this.register();
    await this.boot(options);
  }

  /**
   * Calls every plugin's `register` in order. Wiring only, so it runs before the data directory
   * is prepared: a name registered twice stops start-up with nothing written.
   */
  register(): void {
    this.expectPhase('created', 'register');
    const enabled = new Set(this.plugins.map(({ plugin }) => plugin.name));
    for (const instance of this.plugins) {
      const { name, replaces = [] } = instance.plugin;
      const context = this.contextFor(instance, enabled);
      try {
        this.owners.checkReplaces(name, replaces);
        instance.plugin.register(context);
      } catch (error) {
        const failure = { plugin: name, phase: 'register' as const, error };
        const message =
          error instanceof RegistrationError
            ? error.message
            : `plugin '${name}' failed to register: ${describeError(error)}`;
        throw new LifecycleError(message, [failure]);
      }
    }
    this.phase = 'registered';
  }

  async boot(options: BootOptions = {}): Promise<void> {
    this.expectPhase('registered', 'boot');
    this.phase = 'booted';
    for (const replacement of this.replacements) this.logReplacement(replacement);
    for (const instance of this.plugins) {
      // A shutdown requested during boot: the plugins not yet booted never start.
      if (this.disposal) return;
      const { plugin } = instance;
      if (plugin.name === options.except) continue;
      const context = this.contexts.get(plugin.name) as PluginContext<object>;
      const startedAt = Date.now();
      this.bootStep = Promise.resolve(plugin.boot?.(context));
      try {
        await this.bootStep;
      } catch (error) {
        throw await this.bootFailed(plugin.name, context, error);
      }
      this.started.push(instance);
      context.logger.info(
        { ms: Date.now() - startedAt, source: instance.source },
        'Plugin started',
      );
    }
    if (options.except !== undefined) return;
    const names = this.plugins.map(({ plugin }) => plugin.name);
    this.logger.info({ mode: this.settings.mode, plugins: names }, 'Node started');
    this.events.emit('kernel.booted', { mode: this.settings.mode, plugins: names });
  }

  /** Disposes booted plugins in reverse order; resolves with every failure (none: empty). */
  dispose(reason = 'shutdown'): Promise<readonly PluginFailure[]> {
    this.disposal ??= this.disposeAll(reason);
    return this.disposal;
  }

  /**
   * Disposes what booted and builds the error: the failure is the plugin whose code threw,
   * which is the owner of a service that failed to construct, not the plugin resolving it.
   */
  private async bootFailed(
    booting: string,
    context: PluginContext<object>,
    error: unknown,
  ): Promise<LifecycleError> {
    const culprit = serviceErrorIn(error)?.plugin ?? booting;
    const failure: PluginFailure = { plugin: culprit, phase: 'boot', error };
    context.logger.error({ err: error, culprit }, 'Plugin failed to boot');
    const disposeFailures = await this.dispose(`plugin '${booting}' failed to boot`);
    const message =
      error instanceof RegistrationError
        ? error.message
        : `plugin '${booting}' failed to boot: ${describeError(error)}`;
    return new LifecycleError(message, [failure, ...disposeFailures]);
  }

  private async disposeAll(reason: string): Promise<readonly PluginFailure[]> {
    // Let a boot in progress finish (or fail) so that the plugin is disposed if it started.
    await this.bootStep?.catch(() => undefined);
    await this.events.emitAndWait('kernel.disposing', { reason });
    const failures: PluginFailure[] = [];
    for (const { plugin } of [...this.started].reverse()) {
      const context = this.contexts.get(plugin.name) as PluginContext<object>;
      try {
        await plugin.dispose?.(context);
        context.logger.info('Plugin stopped');
      } catch (error) {
        failures.push({ plugin: plugin.name, phase: 'dispose', error });
        context.logger.error({ err: error }, 'Plugin failed to dispose');
      }
    }
    try {
      await this.container.dispose();
    } catch (error) {
      failures.push({ plugin: 'kernel', phase: 'dispose', error });
      this.logger.error({ err: error }, 'Container disposers failed');
    }
    this.phase = 'disposed';
    return failures;
  }

  private contextFor(
    instance: PluginInstance,
    enabled: ReadonlySet<string>,
  ): PluginContext<object> {
    const { name, replaces = [] } = instance.plugin;
    const context: PluginContext<object> = Object.freeze({
      name,
      options: instance.options,
      container: pluginContainer(this.container, {
        plugin: name,
        replaces,
        owners: this.owners,
        onReplaced: (replacement) => this.replaced(replacement),
      }),
      logger: this.logger.child({ plugin: name }),
      events: this.events.forPlugin(name),
      paths: this.settings.paths,
      mode: this.settings.mode,
      network: this.settings.network,
      enabledPlugins: enabled,
    });
    this.contexts.set(name, context);
    return context;
  }

  /** Said when boot starts, so that it reaches the log file opened after registration. */
  private replaced(replacement: ServiceReplacement): void {
    if (this.phase === 'created') this.replacements.push(replacement);
    else this.logReplacement(replacement);
  }

  private logReplacement(replacement: ServiceReplacement): void {
    this.logger.info({ ...replacement }, 'Service replaced');
  }

  private expectPhase(expected: Phase, action: string): void {
    if (this.phase !== expected) {
      throw new Error(`cannot ${action} an application that is ${this.phase}`);
    }
  }
}

/** The ServiceError an error is or was caused by, if any. */
function serviceErrorIn(error: unknown): ServiceError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof ServiceError) return current;
  }
  return undefined;
}
