import { InitialSchema1763900000000 } from './1763900000000-initial-schema.js';
import { RowTotals1764000000000 } from './1764000000000-row-totals.js';
import { PaymentRecipients1764000000001 } from './1764000000001-payment-recipients.js';
import { Peers1764100000000 } from './1764100000000-peers.js';
import { PoolTransactions1764200000000 } from './1764200000000-pool-transactions.js';
import { MissedSlots1764300000000 } from './1764300000000-missed-slots.js';
import { Webhooks1764300000001 } from './1764300000001-webhooks.js';
import { TransactionParties1764400000000 } from './1764400000000-transaction-parties.js';
import { PartyCount1764500000000 } from './1764500000000-party-count.js';
import { PartyPairs1764600000000 } from './1764600000000-party-pairs.js';
import { WebhookArkShape1764700000000 } from './1764700000000-webhook-ark-shape.js';

/** Every schema migration, oldest first. */
export const schemaMigrations = [
  InitialSchema1763900000000,
  RowTotals1764000000000,
  PaymentRecipients1764000000001,
  Peers1764100000000,
  PoolTransactions1764200000000,
  MissedSlots1764300000000,
  Webhooks1764300000001,
  TransactionParties1764400000000,
  PartyCount1764500000000,
  PartyPairs1764600000000,
  WebhookArkShape1764700000000,
];
