import type { WebhookCondition } from './storage/webhook-storage.js';
import type { JsonValue } from '../resources/json-values.js';

/** What the condition worker is told, in order: the webhooks, then events to match. */
export type ConditionRequest =
  | {
      readonly kind: 'webhooks';
      readonly webhooks: readonly {
        readonly id: string;
        readonly conditions: readonly WebhookCondition[];
      }[];
    }
  | {
      readonly kind: 'match';
      readonly id: number;
      readonly data: JsonValue;
      /** The webhooks of the event whose conditions are to be tested. */
      readonly webhookIds: readonly string[];
    };

/** The webhooks, of those asked about, whose conditions all hold on the event's data. */
export interface ConditionResponse {
  readonly id: number;
  readonly matching: readonly string[];
}
