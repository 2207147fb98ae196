import type { SchemaContribution } from '@lni/database/contracts';
import { PoolTransactions1764200000000 } from './migrations/1764200000000-pool-transactions.js';
import { MissedSlots1764300000000 } from './migrations/1764300000000-missed-slots.js';
import { WalletState1765100000000 } from './migrations/1765100000000-wallet-state.js';
import { WalletSearchIndexes1765200000000 } from './migrations/1765200000000-wallet-search-indexes.js';

/** The state plugin's own tables: the pool as kept on disk, missed slots, wallet state and its head. */
export const stateSchema: SchemaContribution = {
  migrations: [
    PoolTransactions1764200000000,
    MissedSlots1764300000000,
    WalletState1765100000000,
    WalletSearchIndexes1765200000000,
  ],
  // Every pooled transaction is a row added then deleted.
  churning: ['pool_transactions'],
};
