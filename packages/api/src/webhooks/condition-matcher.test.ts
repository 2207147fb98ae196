import type { Webhook } from './storage/webhook-storage.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ConditionMatcher, ConditionTimeoutError } from './condition-matcher.js';

const webhook = (id: string, conditions: Webhook['conditions']): Webhook => ({
  id,
  event: 'transaction.applied',
  target: 'http://127.0.0.1:1/hook',
  enabled: true,
  conditions,
  secret: 's',
  token: null,
  createdAt: 0,
  failingSince: null,
  disabledReason: null,
});

/**
 * A stand-in worker that answers every webhook asked about, except for data with `hang`,
 * on which it never answers (its thread busy for good).
 */
const hangingWorker = new URL(
  `data:text/javascript,${encodeURIComponent(`
    import { parentPort } from 'node:worker_threads';
    parentPort.on('message', (request) => {
      if (request.kind !== 'match') return;
      if (request.data.hang) for (;;);
      parentPort.postMessage({ id: request.id, matching: request.webhookIds });
    });
  `)}`,
);

let matcher: ConditionMatcher | undefined;
afterEach(async () => {
  await matcher?.stop();
  matcher = undefined;
});

describe('webhook conditions on their own thread', () => {
  it("answers the issue's pattern and input at once, and which webhooks match", async () => {
    matcher = new ConditionMatcher();
    matcher.setWebhooks([
      webhook('backtracking', [{ key: 'vendorField', condition: 'regexp', value: '^(a+)+$' }]),
      webhook('deposit', [{ key: 'recipientId', condition: 'eq', value: 'ADeposit' }]),
    ]);
    const started = performance.now();
    const data = { vendorField: `${'a'.repeat(48)}!`, recipientId: 'ADeposit' };
    expect(await matcher.match(data, ['backtracking', 'deposit'])).toEqual(['deposit']);
    expect(await matcher.match({ vendorField: 'aaaa' }, ['backtracking', 'deposit'])).toEqual([
      'backtracking',
    ]);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('gives up on a worker that does not answer, without stalling this thread, and starts anew', async () => {
    matcher = new ConditionMatcher({ workerUrl: hangingWorker, timeoutMs: 300 });
    matcher.setWebhooks([webhook('w', [{ key: 'x', condition: 'truthy' }])]);
    const stalled = matcher.match({ hang: true }, ['w']);
    // This thread goes on while the worker is stuck.
    const lag = await new Promise<number>((resolve) => {
      const at = performance.now();
      setTimeout(() => resolve(performance.now() - at - 20), 20);
    });
    expect(lag).toBeLessThan(100);
    await expect(stalled).rejects.toBeInstanceOf(ConditionTimeoutError);
    expect(await matcher.match({ hang: false }, ['w'])).toEqual(['w']);
  });
});
