import type { Logger } from '@lni/kernel';

export interface RetryPolicy {
  readonly attempts: number;
  /** No new attempt starts once this long has passed since the first one. */
  readonly timeoutMs: number;
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

/**
 * Calls `connect` until it succeeds, doubling the pause between attempts up to a ceiling, for at
 * most `attempts` attempts and `timeoutMs` (the last pause is shortened to end on time).
 */
export async function connectWithRetry<T>(
  connect: () => Promise<T>,
  policy: RetryPolicy,
  logger: Logger,
  target: string,
): Promise<T> {
  const deadline = Date.now() + policy.timeoutMs;
  let delayMs = policy.initialDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await connect();
    } catch (error) {
      const left = deadline - Date.now();
      if (attempt >= policy.attempts || left <= 0 || !isTransientConnectionError(error)) {
        throw error;
      }
      const pauseMs = Math.min(delayMs, left);
      logger.warn(
        { target, attempt, attempts: policy.attempts, retryInMs: pauseMs, err: error },
        'Database unreachable, retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      delayMs = Math.min(delayMs * 2, policy.maxDelayMs);
    }
  }
}
