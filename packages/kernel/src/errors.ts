import { KernelError } from '@lni/errors';

// Its home is @lni/errors (crypto throws it without the kernel); re-exported for the plugins.
export { KernelError };

/** A mistake in configuration (app.json, options, environment): start-up stops with this message. */
export class ConfigError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_CONFIG', message, options);
  }
}

/** One or more plugins failed while booting or disposing; every cause is kept. */
export class LifecycleError extends KernelError {
  constructor(
    message: string,
    readonly failures: readonly PluginFailure[],
  ) {
    super('ERR_LIFECYCLE', message, { cause: failures[0]?.error });
  }
}

/**
 * A plugin registers a service name the kernel or another plugin owns, or declares a
 * replacement that cannot happen: start-up stops at `register` with this one line.
 */
export class RegistrationError extends KernelError {
  constructor(message: string) {
    super('ERR_REGISTRATION', message);
  }
}

/**
 * Constructing a registered service threw: names the service and the plugin that registered
 * it, which is not always the plugin whose boot resolved it.
 */
export class ServiceError extends KernelError {
  constructor(
    readonly service: string,
    readonly plugin: string,
    cause: unknown,
  ) {
    super(
      'ERR_SERVICE',
      `service '${service}' of plugin '${plugin}' failed: ${describeError(cause)}`,
      { cause },
    );
  }
}

export interface PluginFailure {
  readonly plugin: string;
  readonly phase: 'register' | 'boot' | 'dispose';
  readonly error: unknown;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
