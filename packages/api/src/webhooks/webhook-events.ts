import type { Service, Webhook, WebhookStorage } from '@lni/database';
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../resources/json-values.js';
import { conditionsHold } from './conditions.js';
import {
  WEBHOOK_EVENTS,
  webhookEventData,
  type WebhookDataSources,
  type WebhookEvent,
  type WebhookEventPayloads,
} from './webhook-event-data.js';

/** The kernel's event bus as webhooks follow it. */
export interface WebhookEventSource {
  on<K extends WebhookEvent>(
    event: K,
    listener: (payload: WebhookEventPayloads[K]) => void,
  ): () => void;
}

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
      readonly events: WebhookEventSource;
      readonly webhookStorage: Service<WebhookStorage>;
      readonly sources: WebhookDataSources;
      /** Called once deliveries are written, so they are sent at once. */
      readonly written: () => void;
      readonly onError: (error: unknown) => void;
    },
  ) {}

  /** Loads the webhooks and follows the events. */
  async start(): Promise<void> {
    await this.reload();
    for (const event of WEBHOOK_EVENTS) this.follow(event);
  }

  private follow<K extends WebhookEvent>(event: K): void {
    this.unsubscribe.push(
      this.deps.events.on(event, (payload) => {
        const webhooks = this.webhooks.filter(
          (webhook) => webhook.enabled && webhook.event === event,
        );
        // Most events have no webhook: their data is not even made.
        if (webhooks.length === 0) return;
        this.happened(event, webhooks, webhookEventData(event, payload, this.deps.sources));
      }),
    );
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    await this.writing;
  }

  /** After a webhook was created, changed or deleted. */
  async reload(): Promise<void> {
    this.webhooks = await this.deps.webhookStorage.list();
  }

  /** ARK's body `{ timestamp, data, event }`, and the delivery's id, which ARK does not send. */
  private happened(event: WebhookEvent, webhooks: readonly Webhook[], data: JsonValue): void {
    const timestamp = Date.now();
    const deliveries = webhooks
      .filter((webhook) => conditionsHold(webhook.conditions, data))
      .map((webhook) => {
        const delivery = randomUUID();
        return {
          id: delivery,
          webhookId: webhook.id,
          body: JSON.stringify({ timestamp, data, event, delivery }),
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
