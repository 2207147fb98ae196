import Joi from 'joi';
import { poolOptionsSchema, type PoolOptions } from '../pool/pool-options.js';

export interface StateOptions {
  readonly pool: PoolOptions;
  /** Worker threads verifying signatures in bulk; 0 verifies on the main thread. */
  readonly verificationWorkers: number;
  /** Blocks read per batch when rebuilding state from storage at boot. */
  readonly rebuildBatchSize: number;
}

export const stateConfigSchema = Joi.object<StateOptions>({
  pool: poolOptionsSchema.default(),
  verificationWorkers: Joi.number().integer().min(0).max(64).default(2),
  rebuildBatchSize: Joi.number().integer().min(1).max(10_000).default(500),
});
