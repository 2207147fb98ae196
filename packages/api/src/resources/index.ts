export * from './block.js';
export * from './chain-context.js';
export * from './delegate.js';
export type * from './json-values.js';
export * from './lock.js';
export * from './timestamp.js';
export * from './transaction.js';
export * from './unconfirmed-transaction.js';
export * from './wallet.js';
