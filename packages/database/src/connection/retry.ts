import type { Logger } from '@lni/kernel';

export interface RetryPolicy {
  readonly attempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * Network failures and a server still starting are worth retrying; a wrong password or a
 * missing database are not, and waiting would only hide the mistake.
 */
export function isTransientConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return true;
  if (/^[0-9A-Z]{5}$/.test(code)) return code.startsWith('08') || code.startsWith('57');
  return true;
}

/** Calls `connect` until it succeeds, doubling the pause between attempts up to a ceiling. */
export async function connectWithRetry<T>(
  connect: () => Promise<T>,
  policy: RetryPolicy,
  logger: Logger,
  target: string,
): Promise<T> {
  let delayMs = policy.initialDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await connect();
    } catch (error) {
      if (attempt >= policy.attempts || !isTransientConnectionError(error)) throw error;
      logger.warn(
        { target, attempt, attempts: policy.attempts, retryInMs: delayMs, err: error },
        'Database unreachable, retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, policy.maxDelayMs);
    }
  }
}
