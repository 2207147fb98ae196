import type { Service } from '@lni/database';
import type { Webhook, WebhookDelivery, WebhookStorage } from './storage/webhook-storage.js';
import type { EntityManager } from '@lni/database/contracts';
import type { EventBus, Logger } from '@lni/kernel';
import type { CommittedBlock } from '@lni/state/contracts';
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../resources/json-values.js';
import type { ConditionMatcher } from './condition-matcher.js';
import { ConditionSet } from './conditions.js';
import {
  WEBHOOK_EVENTS,
  webhookEventData,
  type WebhookDataSources,
  type WebhookEvent,
} from './webhook-event-data.js';

/** The events of an applied block, whose deliveries are written with the block when it can. */
const BLOCK_EVENTS: ReadonlySet<WebhookEvent> = new Set(['block.applied', 'transaction.applied']);

/**
 * Turns the node's events into deliveries: for each enabled webhook of the event, one delivery
 * row with the body to send, written to the database before anything is sent. An applied
 * block's events are written in the block's own database transaction (`blockCommitting`, once
 * joined), so a crash right after the commit loses none; the other events as they are
 * published, in the order they happened. Conditions are not tested here: a webhook with
 * conditions gets a `conditional` row, which the sender tests after the commit
 * (DeliveryConditions), so no block commit waits on the matcher's worker thread.
 */
export class WebhookEvents {
  private webhooks: readonly Webhook[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  private writing: Promise<unknown> = Promise.resolve();
  /** True once the block's transaction writes its events' deliveries (see `blockCommitting`). */
  private withBlocks = false;

  constructor(
    private readonly deps: {
      readonly events: EventBus;
      readonly webhookStorage: Service<WebhookStorage>;
      readonly sources: WebhookDataSources;
      /** Told the webhooks whose conditions the sender tests. */
      readonly matcher: Pick<ConditionMatcher, 'setWebhooks'>;
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

  /** From now on, an applied block's deliveries come through `blockCommitting`, not the bus. */
  writeWithBlocks(): void {
    this.withBlocks = true;
  }

  /**
   * Writes the deliveries of a block's events in the block's transaction (`manager`); returns
   * what wakes the deliverer once the block is committed. Only rows are written, nothing is
   * matched, so the transaction stays short. A failure here fails the block, which is then not
   * stored either, rather than stored without its deliveries.
   */
  async blockCommitting(
    manager: EntityManager,
    { events }: Pick<CommittedBlock, 'events'>,
  ): Promise<(() => void) | void> {
    const deliveries = [];
    for (const applied of events) {
      if (applied.event !== 'transaction.applied' && applied.event !== 'block.applied') continue;
      const webhooks = this.subscribed(applied.event);
      if (webhooks.length === 0) continue;
      // Narrowed per event, so that each payload is checked against the data made from it.
      const data =
        applied.event === 'block.applied'
          ? webhookEventData(applied.event, applied.payload, this.deps.sources)
          : webhookEventData(applied.event, applied.payload, this.deps.sources);
      deliveries.push(...this.deliveries(applied.event, webhooks, data, Date.now()));
    }
    if (deliveries.length === 0) return;
    await this.deps.webhookStorage.enqueue(deliveries, manager);
    return this.deps.written;
  }

  private subscribed(event: WebhookEvent): Webhook[] {
    return this.webhooks.filter((webhook) => webhook.enabled && webhook.event === event);
  }

  private follow<K extends WebhookEvent>(event: K): void {
    this.unsubscribe.push(
      this.deps.events.on(event, (payload) => {
        if (this.withBlocks && isBlockEvent(event)) return;
        const webhooks = this.subscribed(event);
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
    // In event order, one write after the other.
    this.writing = this.writing
      .then(async () => {
        await this.deps.webhookStorage.enqueue(this.deliveries(event, webhooks, data, timestamp));
        this.deps.written();
      })
      .catch(this.deps.onError);
  }

  /** One delivery for each of `webhooks`; `conditional` for those with conditions. */
  private deliveries(
    event: WebhookEvent,
    webhooks: readonly Webhook[],
    data: JsonValue,
    timestamp: number,
  ): WebhookDelivery[] {
    return webhooks.map((webhook) => {
      const delivery = randomUUID();
      return {
        id: delivery,
        webhookId: webhook.id,
        body: JSON.stringify({ timestamp, data, event, delivery }),
        status: webhook.conditions.length > 0 ? 'conditional' : 'pending',
        attempts: 0,
        nextAttemptAt: Date.now(),
        createdAt: Date.now(),
      };
    });
  }
}

function isBlockEvent(event: string): event is 'block.applied' | 'transaction.applied' {
  return BLOCK_EVENTS.has(event as WebhookEvent);
}
