import { asValue, createContainer, InjectionMode } from 'awilix';
import { describeError, LifecycleError, type PluginFailure } from './errors.js';
import { EventBus } from './events/event-bus.js';
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

type Phase = 'created' | 'registered' | 'booted' | 'disposed';

/**
 * Runs planned plugins through their lifecycle: register all in order, boot in order, dispose
 * in reverse. Disposing is idempotent and collects every failure instead of stopping at one.
 */
export class Application {
  readonly container: Container;
  readonly events: EventBus;
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
    this.container.register({
      logger: asValue(settings.logger),
      events: asValue(this.events),
      metrics: asValue(createMetricsRegistry()),
      paths: asValue(settings.paths),
      mode: asValue(settings.mode),
      network: asValue(settings.network),
    });
  }

  get logger(): Logger {
    return this.settings.logger;
  }

  /** Registers then boots every plugin; on a failure disposes what booted and throws. */
  async start(): Promise<void> {
    this.register();
    await this.boot();
  }

  register(): void {
    this.expectPhase('created', 'register');
    const enabled = new Set(this.plugins.map(({ plugin }) => plugin.name));
    for (const instance of this.plugins) {
      const context = this.contextFor(instance, enabled);
      try {
        instance.plugin.register(context);
      } catch (error) {
        const failure = { plugin: instance.plugin.name, phase: 'register' as const, error };
        throw new LifecycleError(
          `plugin '${failure.plugin}' failed to register: ${describeError(error)}`,
          [failure],
        );
      }
    }
    this.phase = 'registered';
  }

  async boot(): Promise<void> {
    this.expectPhase('registered', 'boot');
    for (const instance of this.plugins) {
      // A shutdown requested during boot: the plugins not yet booted never start.
      if (this.disposal) return;
      const { plugin } = instance;
      const context = this.contexts.get(plugin.name) as PluginContext<object>;
      const startedAt = Date.now();
      this.bootStep = Promise.resolve(plugin.boot?.(context));
      try {
        await this.bootStep;
      } catch (error) {
        const failure: PluginFailure = { plugin: plugin.name, phase: 'boot', error };
        context.logger.error({ err: error }, 'Plugin failed to boot');
        const disposeFailures = await this.dispose(`plugin '${plugin.name}' failed to boot`);
        throw new LifecycleError(
          `plugin '${plugin.name}' failed to boot: ${describeError(error)}`,
          [failure, ...disposeFailures],
        );
      }
      this.started.push(instance);
      context.logger.info(
        { ms: Date.now() - startedAt, source: instance.source },
        'Plugin started',
      );
    }
    this.phase = 'booted';
    const names = this.plugins.map(({ plugin }) => plugin.name);
    this.logger.info({ mode: this.settings.mode, plugins: names }, 'Node started');
    this.events.emit('kernel.booted', { mode: this.settings.mode, plugins: names });
  }

  /** Disposes booted plugins in reverse order; resolves with every failure (none: empty). */
  dispose(reason = 'shutdown'): Promise<readonly PluginFailure[]> {
    this.disposal ??= this.disposeAll(reason);
    return this.disposal;
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
    const { name } = instance.plugin;
    const context: PluginContext<object> = Object.freeze({
      name,
      options: instance.options,
      container: this.container,
      logger: this.logger.child({ plugin: name }),
      events: this.events,
      paths: this.settings.paths,
      mode: this.settings.mode,
      network: this.settings.network,
      enabledPlugins: enabled,
    });
    this.contexts.set(name, context);
    return context;
  }

  private expectPhase(expected: Phase, action: string): void {
    if (this.phase !== expected) {
      throw new Error(`cannot ${action} an application that is ${this.phase}`);
    }
  }
}
