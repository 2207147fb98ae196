import Joi from 'joi';
import { poolOptionsSchema, type PoolOptions } from './pool/pool-options.js';
import { INLINE_VISITS } from './wallets/replica/cost-routed-queries.js';

export interface StateOptions {
  readonly pool: PoolOptions;
  /** Worker threads verifying signatures in bulk; 0 verifies on the main thread. */
  readonly verificationWorkers: number;
  /** Blocks read per batch when rebuilding state from storage at boot. */
  readonly rebuildBatchSize: number;
  readonly walletQueries: WalletQueryOptions;
  readonly walletTable: WalletTableOptions;
}

/** The wallets table kept with each block (see wallets/table). */
export interface WalletTableOptions {
  /** Boot loads the wallets from the table when it checks out; false always replays the chain. */
  readonly load: boolean;
}

/** Where the API's wallet and delegate queries run (see CostRoutedWalletQueries). */
export interface WalletQueryOptions {
  /** Costly queries run in a worker thread holding a copy of the wallets. */
  readonly offThread: boolean;
  /** Wallet visits a query may cost on the node's thread; costlier ones go to the worker. */
  readonly inlineVisits: number;
  /** Costly queries waiting in the worker beyond this are answered busy (503) at once. */
  readonly maxQueued: number;
}

export const stateConfigSchema = Joi.object<StateOptions>({
  pool: poolOptionsSchema.default(),
  verificationWorkers: Joi.number().integer().min(0).max(64).default(2),
  rebuildBatchSize: Joi.number().integer().min(1).max(10_000).default(500),
  walletQueries: Joi.object<WalletQueryOptions>({
    offThread: Joi.boolean().default(true),
    inlineVisits: Joi.number().integer().min(0).max(10_000_000).default(INLINE_VISITS),
    maxQueued: Joi.number().integer().min(1).max(100_000).default(64),
  }).default(),
  walletTable: Joi.object<WalletTableOptions>({
    load: Joi.boolean().default(true),
  }).default(),
});
