import type { Application } from '../application.js';

export interface ShutdownOptions {
  readonly signals?: readonly NodeJS.Signals[];
  readonly exit?: (code: number) => void;
}

/**
 * First SIGINT/SIGTERM: dispose every plugin in reverse and exit non-zero if any failed.
 * A second signal while that runs exits at once, for a plugin that hangs in dispose.
 */
export function exitOnSignals(app: Application, options: ShutdownOptions = {}): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      app.logger.warn({ signal }, 'Second signal received, exiting without waiting');
      exit(130);
      return;
    }
    stopping = true;
    app.logger.info({ signal }, 'Shutting down');
    void app.dispose(`signal ${signal}`).then((failures) => {
      if (failures.length > 0) {
        app.logger.error(
          { failed: failures.map((failure) => failure.plugin) },
          'Stopped with errors',
        );
        exit(1);
      } else {
        app.logger.info('Stopped');
        exit(0);
      }
    });
  };

  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
