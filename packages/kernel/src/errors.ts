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

export interface PluginFailure {
  readonly plugin: string;
  readonly phase: 'register' | 'boot' | 'dispose';
  readonly error: unknown;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
