import type { SchemaContribution } from '@lni/database/contracts';
import { Webhooks1764300000001 } from './migrations/1764300000001-webhooks.js';
import { WebhookArkShape1764700000000 } from './migrations/1764700000000-webhook-ark-shape.js';
import { ConditionalDeliveries1765000000000 } from './migrations/1765000000000-conditional-deliveries.js';

/** The API plugin's own tables: webhooks, their deliveries (the outbox) and attempts. */
export const apiSchema: SchemaContribution = {
  migrations: [
    Webhooks1764300000001,
    WebhookArkShape1764700000000,
    ConditionalDeliveries1765000000000,
  ],
};
