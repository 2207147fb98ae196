import type { OwnedMigrations } from '../schema/schema-registry.js';
import { InitialSchema1763900000000 } from './1763900000000-initial-schema.js';
import { RowTotals1764000000000 } from './1764000000000-row-totals.js';
import { PaymentRecipients1764000000001 } from './1764000000001-payment-recipients.js';
import { TransactionParties1764400000000 } from './1764400000000-transaction-parties.js';
import { PartyCount1764500000000 } from './1764500000000-party-count.js';
import { PartyPairs1764600000000 } from './1764600000000-party-pairs.js';

/**
 * The database plugin's own tables: blocks, transactions, rounds and what is kept from them.
 * Peers, the pool, missed slots and webhooks are migrated by the plugins that own them.
 */
export const databaseSchema: OwnedMigrations = {
  owner: 'database',
  migrations: [
    InitialSchema1763900000000,
    RowTotals1764000000000,
    PaymentRecipients1764000000001,
    TransactionParties1764400000000,
    PartyCount1764500000000,
    PartyPairs1764600000000,
  ],
};
