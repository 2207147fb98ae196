/** One thing `/health` checks: passes when `run` resolves, fails with the reason it rejects. */
export interface HealthCheck {
  readonly name: string;
  /** Resolves with details to show (a height, a relay's name), rejects saying what is wrong. */
  run(): Promise<Record<string, unknown>>;
}

export interface CheckOutcome {
  readonly ok: boolean;
  readonly [detail: string]: unknown;
}

export interface HealthReport {
  readonly status: 'ok' | 'failing';
  /** The names of the checks that failed, for a reader who looks at one line. */
  readonly failing: readonly string[];
  readonly checks: Readonly<Record<string, CheckOutcome>>;
}

/**
 * Runs every check at once, each bounded by `timeoutMs`: a database or relay that hangs is
 * reported as failing instead of holding the probe past its own timeout.
 */
export async function runHealthChecks(
  checks: readonly HealthCheck[],
  timeoutMs: number,
): Promise<HealthReport> {
  const outcomes = await Promise.all(
    checks.map(async (check): Promise<[string, CheckOutcome]> => {
      try {
        const details = await withTimeout(check.run(), timeoutMs);
        return [check.name, { ok: true, ...details }];
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return [check.name, { ok: false, reason }];
      }
    }),
  );
  const failing = outcomes.filter(([, outcome]) => !outcome.ok).map(([name]) => name);
  return {
    status: failing.length === 0 ? 'ok' : 'failing',
    failing,
    checks: Object.fromEntries(outcomes),
  };
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
