import { createLogger, type Logger } from '@lni/kernel';

/**
 * The logger of the migration run under way. TypeORM builds migrations itself, without
 * arguments, so a long migration (a backfill) finds here where to report its progress.
 */
let current: Logger | undefined;

export async function withMigrationLogger<T>(logger: Logger, run: () => Promise<T>): Promise<T> {
  const previous = current;
  current = logger;
  try {
    return await run();
  } finally {
    current = previous;
  }
}

/** The logger of the running migration; a silent one when run outside `applySchemaMigrations`. */
export function migrationLogger(): Logger {
  return current ?? createLogger({ level: 'fatal' });
}
