import type { Service, Webhook, WebhookStorage } from '@lni/database';
import type { Logger } from '@lni/kernel';
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../resources/json-values.js';
import type { ConditionMatcher } from './condition-matcher.js';
import { ConditionSet } from './conditions.js';
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
 * before anything is sent. Conditions are tested by the matcher's worker thread, never on the
 * thread that applies blocks; events are written in the order they happened.
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
      readonly matcher: ConditionMatcher;
      readonly logger: Logger;
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
    await this.deps.matcher.stop();
  }

  /** After a webhook was created, changed or deleted. */
  async reload(): Promise<void> {
    this.webhooks = await this.deps.webhookStorage.list();
    this.deps.matcher.setWebhooks(this.webhooks);
    for (const webhook of this.webhooks) {
      const { problems } = new ConditionSet(webhook.conditions);
      if (problems.length > 0) {
        this.deps.logger.warn(
          { webhook: webhook.id, problems },
          'Webhook conditions that can never hold: its pattern is not one RE2 takes',
        );
      }
    }
  }

  /** ARK's body `{ timestamp, data, event }`, and the delivery's id, which ARK does not send. */
  private happened(event: WebhookEvent, webhooks: readonly Webhook[], data: JsonValue): void {
    const timestamp = Date.now();
    const conditional = webhooks.filter((webhook) => webhook.conditions.length > 0);
    // In event order, one write after the other.
    this.writing = this.writing
      .then(async () => {
        const matching = new Set(await this.matching(event, conditional, data));
        const deliveries = webhooks
          .filter((webhook) => webhook.conditions.length === 0 || matching.has(webhook.id))
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
        await this.deps.webhookStorage.enqueue(deliveries);
        this.deps.written();
      })
      .catch(this.deps.onError);
  }

  /** The conditional webhooks that match; none when the matcher failed (said in the log). */
  private async matching(
    event: WebhookEvent,
    conditional: readonly Webhook[],
    data: JsonValue,
  ): Promise<readonly string[]> {
    if (conditional.length === 0) return [];
    try {
      return await this.deps.matcher.match(
        data,
        conditional.map((webhook) => webhook.id),
      );
    } catch (error) {
      this.deps.logger.warn(
        { event, webhooks: conditional.map((webhook) => webhook.id), err: error },
        'Webhook conditions not tested: these webhooks get no delivery of the event',
      );
      return [];
    }
  }
}
