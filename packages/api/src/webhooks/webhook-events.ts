import type { EventBus } from '@lni/kernel';
import type { Service, Webhook, WebhookStorage } from '@lni/database';
import { randomUUID } from 'node:crypto';
import { toJsonValue, type JsonValue } from '../resources/json-values.js';
import { conditionsHold } from './conditions.js';

/** Events a webhook can follow: those the node's plugins publish on the event bus. */
export const WEBHOOK_EVENTS = [
  'block.applied',
  'block.reverted',
  'transaction.applied',
  'forger.missing',
  'peer.added',
  'peer.removed',
] as const;

/**
 * Turns the node's events into deliveries: for each enabled webhook of the event whose
 * conditions hold on its data, one delivery row with the body to send, written to the database
 * before anything is sent.
 */
export class WebhookEvents {
  private webhooks: readonly Webhook[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      readonly events: EventBus;
      readonly webhookStorage: Service<WebhookStorage>;
      /** Called once deliveries are written, so they are sent at once. */
      readonly written: () => void;
      readonly onError: (error: unknown) => void;
    },
  ) {}

  /** Loads the webhooks and follows the events. */
  async start(): Promise<void> {
    await this.reload();
    // The bus is typed by the plugins that declare each event; webhooks take them by name.
    const on = this.deps.events.on.bind(this.deps.events) as unknown as (
      event: string,
      listener: (payload: unknown) => void,
    ) => () => void;
    for (const event of WEBHOOK_EVENTS) {
      this.unsubscribe.push(on(event, (payload) => this.happened(event, payload)));
    }
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    await this.writing;
  }

  /** After a webhook was created, changed or deleted. */
  async reload(): Promise<void> {
    this.webhooks = await this.deps.webhookStorage.list();
  }

  private happened(event: string, payload: unknown): void {
    const data = eventData(payload);
    const timestamp = new Date().toISOString();
    const deliveries = this.webhooks
      .filter((webhook) => webhook.enabled && webhook.event === event)
      .filter((webhook) => conditionsHold(webhook.conditions, data))
      .map((webhook) => {
        const delivery = randomUUID();
        return {
          id: delivery,
          webhookId: webhook.id,
          body: JSON.stringify({ event, data, timestamp, delivery }),
          status: 'pending' as const,
          attempts: 0,
          nextAttemptAt: Date.now(),
          createdAt: Date.now(),
        };
      });
    if (deliveries.length === 0) return;
    // In event order, one write after the other.
    this.writing = this.writing
      .then(() => this.deps.webhookStorage.enqueue(deliveries))
      .then(this.deps.written, this.deps.onError);
  }
}

/** The payload as JSON (amounts as strings); a block is its header, without transactions. */
function eventData(payload: unknown): JsonValue {
  const value = payload as { block?: { transactions?: unknown } } | null;
  if (value?.block && typeof value.block === 'object' && 'transactions' in value.block) {
    const { transactions: _omitted, ...header } = value.block;
    return toJsonValue({ ...value, block: header }) ?? null;
  }
  return toJsonValue(payload) ?? null;
}
