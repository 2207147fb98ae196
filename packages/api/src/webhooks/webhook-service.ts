import type { EventBus, Logger } from '@lni/kernel';
import type { BlockCommit } from '@lni/state/contracts';
import type { Service } from '@lni/database';
import type { WebhookStorage } from './storage/webhook-storage.js';
import { Counter, type Registry } from 'prom-client';
import { ConditionMatcher } from './condition-matcher.js';
import { DeliveryConditions } from './delivery-conditions.js';
import { WebhookDeliverer, type DeliveryOptions } from './webhook-deliverer.js';
import type { WebhookDataSources } from './webhook-event-data.js';
import { WebhookEvents } from './webhook-events.js';

/** Events to deliveries to POSTs: the webhooks of this node, started at boot. */
export class WebhookService {
  private readonly events: WebhookEvents;
  private readonly deliverer: WebhookDeliverer;
  private readonly matcher: ConditionMatcher;
  private leaveBlocks: (() => void) | undefined;

  constructor(deps: {
    readonly events: EventBus;
    readonly webhookStorage: Service<WebhookStorage>;
    readonly sources: WebhookDataSources;
    readonly options: DeliveryOptions;
    readonly logger: Logger;
    readonly metrics: Registry;
    /** Tests conditions off the main thread; a worker thread of its own by default. */
    readonly matcher?: ConditionMatcher;
  }) {
    const deliveries = new Counter({
      name: 'lni_webhook_deliveries_total',
      help: 'Webhook delivery attempts by result: delivered, failed (retried later), disabled (webhooks given up)',
      labelNames: ['result'],
      registers: [deps.metrics],
    });
    const storage = deps.webhookStorage;
    this.matcher = deps.matcher ?? new ConditionMatcher();
    this.deliverer = new WebhookDeliverer({
      webhookStorage: storage,
      conditions: new DeliveryConditions({
        webhookStorage: storage,
        matcher: this.matcher,
        logger: deps.logger,
      }),
      options: deps.options,
      logger: deps.logger,
      count: (result) => deliveries.inc({ result }),
    });
    this.events = new WebhookEvents({
      events: deps.events,
      webhookStorage: storage,
      sources: deps.sources,
      matcher: this.matcher,
      logger: deps.logger,
      written: () => this.deliverer.wake(),
      onError: (error) =>
        deps.logger.error({ err: error }, 'Webhook deliveries of an event could not be written'),
    });
  }

  async start(): Promise<void> {
    await this.events.start();
    this.deliverer.start();
  }

  /**
   * Writes the deliveries of each applied block in the block's own transaction (an outbox):
   * stored with the block or not at all, sent once it is committed.
   */
  writeWithBlocks(blockCommit: Pick<BlockCommit, 'join'>): void {
    this.leaveBlocks ??= blockCommit.join((manager, block) =>
      this.events.blockCommitting(manager, block),
    );
    this.events.writeWithBlocks();
  }

  /** After a webhook changed: events see the change, and a re-enabled one is sent at once. */
  async changed(): Promise<void> {
    await this.events.reload();
    this.deliverer.wake();
  }

  async stop(): Promise<void> {
    this.leaveBlocks?.();
    this.leaveBlocks = undefined;
    await this.events.stop();
    await this.deliverer.stop();
    await this.matcher.stop();
  }
}
