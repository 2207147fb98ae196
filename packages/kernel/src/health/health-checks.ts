import { runHealthChecks, type HealthCheck, type HealthReport } from './health-check.js';

/**
 * The checks `/health` runs, contributed by the plugins that own what is checked (the
 * database plugin its connection, the forger its relays). Plugins `add` during `register`;
 * whoever serves health runs them all with `run`.
 */
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();

  /** Adds a check; its name is the key in the report, so each name is added once. */
  add(check: HealthCheck): void {
    if (this.checks.has(check.name)) {
      throw new Error(`a health check named '${check.name}' is already added`);
    }
    this.checks.set(check.name, check);
  }

  /** The checks in the order they were added, which is the order of the report. */
  list(): readonly HealthCheck[] {
    return [...this.checks.values()];
  }

  /** Runs every check at once, each bounded by `timeoutMs`. */
  run(timeoutMs: number): Promise<HealthReport> {
    return runHealthChecks(this.list(), timeoutMs);
  }
}
