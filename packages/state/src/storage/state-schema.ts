import type { SchemaContribution } from '@lni/database/contracts';
import { PoolTransactions1764200000000 } from './migrations/1764200000000-pool-transactions.js';
import { MissedSlots1764300000000 } from './migrations/1764300000000-missed-slots.js';
import { WalletState1765100000000 } from './migrations/1765100000000-wallet-state.js';
import { WalletSearchIndexes1765200000000 } from './migrations/1765200000000-wallet-search-indexes.js';
import { WalletKeysInCodeUnitOrder1765300000000 } from './migrations/1765300000000-wallet-keys-in-code-unit-order.js';

/** The state plugin's own tables: the pool as kept on disk, missed slots, wallet state and its head. */
export const stateSchema: SchemaContribution = {
  migrations: [
    PoolTransactions1764200000000,
    MissedSlots1764300000000,
    WalletState1765100000000,
    WalletSearchIndexes1765200000000,
    WalletKeysInCodeUnitOrder1765300000000,
  ],
  // Every pooled transaction is a row added then deleted; every block rewrites the wallets it
  // changed. Left to autovacuum (20 % of the table dead first), the rows of wallets changed
  // often (delegates, the richest) gather dead versions that each index scan walks, and a hot
  // standby cannot skip them: a page of /wallets?orderBy=balance:desc read 3,557 buffers with
  // 7,900 dead rows beside 10,052 live ones, 110 after a vacuum (1.87 ms, then 0.39 ms).
  churning: ['pool_transactions', 'wallets'],
};
