import type { BlockProcessor } from './blocks/block-processor.js';
import type { TransactionPool } from './pool/transaction-pool.js';
import type { MissedSlotStorage } from './storage/missed-slot-storage.js';
import type { PoolStorage } from './storage/pool-storage.js';
import type { RoundKeeper } from './rounds/round-keeper.js';
import type { WalletQueries } from './wallets/query/wallet-query-engine.js';
import type { AsyncWalletQueries } from './wallets/replica/cost-routed-queries.js';
import type { WalletStore } from './wallets/wallet-store.js';

/** A service's public members: classes with private fields would not merge across src and dist. */
type Service<T> = { [K in keyof T]: T[K] };

/**
 * The state plugin's own services, typed by its classes. Other packages use the contracts
 * (`@lni/state/contracts`) instead; only this package's wiring and tests import this file.
 */
declare module '@lni/kernel' {
  interface Cradle {
    /** Every wallet of the ledger with its secondary indexes; change wallets only through it. */
    readonly walletRepository: WalletStore;
    /** Answers the wallet and delegate index endpoints from the repository's indexes. */
    readonly walletQueryEngine: WalletQueries;
    /** The same, with costly queries answered off the node's thread (see options). */
    readonly walletQueries: AsyncWalletQueries;
    readonly blockProcessor: Service<BlockProcessor>;
    /** The pool with the ledger's side of it (apply, revert, restore); others see `transactionPool`. */
    readonly ledgerPool: Service<TransactionPool>;
    /** Elected rounds, their forging order and the slot clock. */
    readonly roundKeeper: Service<RoundKeeper>;
    /** The transaction pool as kept on disk (state's table). */
    readonly poolStorage: Service<PoolStorage>;
    /** Slots delegates let pass, with the block after each gap (state's table). */
    readonly missedSlotStorage: Service<MissedSlotStorage>;
  }
}

export {};
