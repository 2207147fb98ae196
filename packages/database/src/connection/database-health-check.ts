import type { HealthCheck } from '@lni/kernel';

/** The connection as the health check uses it. */
export interface DatabaseProbe {
  /** Probes now; false when the database does not answer. */
  checkAvailability(): Promise<boolean>;
  readonly description: string;
}

/** The `database` check of `/health`: fails naming the database while it does not answer. */
export function databaseHealthCheck(database: DatabaseProbe): HealthCheck {
  return {
    name: 'database',
    run: async () => {
      if (!(await database.checkAvailability())) {
        throw new Error(`the database (${database.description}) does not answer`);
      }
      return {};
    },
  };
}
