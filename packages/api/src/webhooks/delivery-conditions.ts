import type { Logger } from '@lni/kernel';
import type { Service } from '@lni/database';
import type { WebhookDelivery, WebhookStorage } from './storage/webhook-storage.js';
import type { JsonValue } from '../resources/json-values.js';
import type { ConditionMatcher } from './condition-matcher.js';

/** How many conditional deliveries are read at a time. */
const BATCH = 20;

/**
 * Tests the conditions of the deliveries written without testing them (`conditional`), after
 * their event's transaction committed: those whose webhook's conditions hold on the event's data
 * become pending, the others are dropped (kept, never sent). A block's transaction thus never
 * waits on the matcher's worker thread. A matcher that fails or times out drops the deliveries
 * it was asked about, as a condition that cannot be tested never holds.
 */
export class DeliveryConditions {
  constructor(
    private readonly deps: {
      readonly webhookStorage: Service<WebhookStorage>;
      readonly matcher: Pick<ConditionMatcher, 'match'>;
      readonly logger: Logger;
    },
  ) {}

  /** Settles every conditional delivery, oldest first. */
  async settle(): Promise<void> {
    const { webhookStorage } = this.deps;
    for (;;) {
      const waiting = await webhookStorage.conditional(BATCH);
      if (waiting.length === 0) return;
      const held: string[] = [];
      const dropped: string[] = [];
      for (const delivery of waiting) {
        if (await this.holds(delivery)) held.push(delivery.id);
        else dropped.push(delivery.id);
      }
      await webhookStorage.settleConditions(held, dropped);
    }
  }

  private async holds(delivery: WebhookDelivery): Promise<boolean> {
    // The body is ARK's `{ timestamp, data, event, delivery }`: conditions are on `data`.
    const { data, event } = JSON.parse(delivery.body) as { data: JsonValue; event: string };
    try {
      const matching = await this.deps.matcher.match(data, [delivery.webhookId]);
      return matching.includes(delivery.webhookId);
    } catch (error) {
      this.deps.logger.warn(
        { event, webhook: delivery.webhookId, delivery: delivery.id, err: error },
        'Webhook conditions not tested: the delivery is dropped',
      );
      return false;
    }
  }
}
