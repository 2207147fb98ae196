import type { Logger } from '@lni/kernel';
import type { Service } from '@lni/database';
import type { WebhookDelivery, WebhookStorage } from './storage/webhook-storage.js';
import { createHmac } from 'node:crypto';
import type { DeliveryConditions } from './delivery-conditions.js';

/** The header carrying `sha256=<hex HMAC-SHA256 of the body under the webhook's secret>`. */
export const SIGNATURE_HEADER = 'x-lni-signature';
export const DELIVERY_HEADER = 'x-lni-delivery';

export interface DeliveryOptions {
  /** First retry after this long; each next one waits twice as long, up to `maxRetryMs`. */
  readonly firstRetryMs: number;
  readonly maxRetryMs: number;
  /** A target failing for this long (every attempt) gets its webhook disabled. */
  readonly disableAfterMs: number;
  /** How long one POST may take. */
  readonly timeoutMs: number;
  /** How often due deliveries are looked for (a new event is sent at once). */
  readonly pollMs: number;
}

export interface WebhookDelivererDeps {
  readonly webhookStorage: Service<WebhookStorage>;
  readonly options: DeliveryOptions;
  readonly logger: Logger;
  /** Tests the conditions of the deliveries written with them untested, before each pass sends. */
  readonly conditions?: Pick<DeliveryConditions, 'settle'>;
  /** Counts each attempt: `delivered`, `failed` (to be retried), `disabled` (webhooks given up). */
  readonly count: (result: 'delivered' | 'failed' | 'disabled') => void;
  readonly now?: () => number;
}

export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Sends the pending deliveries kept in the database, once their conditions were tested
 * (`conditions`), at least once each: a delivery is marked
 * delivered only after its target answered 2xx, and every attempt is recorded. A failed one is
 * retried with exponential backoff; a webhook whose target failed every attempt for
 * `disableAfterMs` is disabled, saying so in `disabledReason`.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly deps: WebhookDelivererDeps) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.deps.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for due deliveries now (after a new event), or right after the pass under way. */
  wake(): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'Webhook deliveries could not be read or written');
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  private async pass(): Promise<void> {
    const { webhookStorage, options, logger } = this.deps;
    const disabled = await webhookStorage.disableFailingSince(
      this.now() - options.disableAfterMs,
      (since) =>
        `disabled at ${new Date(this.now()).toISOString()}: every delivery failed since ${new Date(since).toISOString()}`,
    );
    for (const webhook of disabled) {
      this.deps.count('disabled');
      logger.warn(
        { webhook: webhook.id, target: webhook.target },
        'Webhook disabled: its target fails',
      );
    }
    await this.deps.conditions?.settle();
    for (;;) {
      const due = await webhookStorage.due(this.now(), 20);
      if (due.length === 0 || !this.timer) return;
      await Promise.all(due.map((delivery) => this.attempt(delivery)));
    }
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const { webhookStorage, options } = this.deps;
    const webhook = await webhookStorage.get(delivery.webhookId);
    if (!webhook?.enabled) return;
    const at = this.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(webhook.target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          // ARK's check that the post comes from the node the webhook was made on.
          ...(webhook.token !== null && { authorization: webhook.token }),
          [SIGNATURE_HEADER]: signatureOf(delivery.body, webhook.secret),
          [DELIVERY_HEADER]: delivery.id,
        },
        body: delivery.body,
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'manual',
      });
      statusCode = response.status;
      await response.body?.cancel();
      if (statusCode < 200 || statusCode > 299) error = `the target answered ${statusCode}`;
    } catch (failure) {
      error = describe(failure);
    }
    const attempt = delivery.attempts + 1;
    if (error === null) {
      await webhookStorage.recordAttempt(
        delivery,
        { attempt, at, statusCode, error },
        { delivered: true },
      );
      this.deps.count('delivered');
      return;
    }
    const wait = Math.min(options.maxRetryMs, options.firstRetryMs * 2 ** (attempt - 1));
    await webhookStorage.recordAttempt(
      delivery,
      { attempt, at, statusCode, error },
      { delivered: false, nextAttemptAt: at + wait },
    );
    this.deps.count('failed');
  }
}

function describe(failure: unknown): string {
  if (!(failure instanceof Error)) return String(failure);
  const cause = (failure as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${failure.message} (${cause.code})` : failure.message;
}
