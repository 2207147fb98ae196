import type { SchemaContribution } from '@lni/database/contracts';
import { PoolTransactions1764200000000 } from './migrations/1764200000000-pool-transactions.js';
import { MissedSlots1764300000000 } from './migrations/1764300000000-missed-slots.js';

/** The state plugin's own tables: the transaction pool as kept on disk, and missed slots. */
export const stateSchema: SchemaContribution = {
  migrations: [PoolTransactions1764200000000, MissedSlots1764300000000],
  // Every pooled transaction is a row added then deleted.
  churning: ['pool_transactions'],
};
