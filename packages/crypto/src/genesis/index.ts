export * from './generate-network.js';
export * from './generate-network-options.js';
export { delegateUsername } from './genesis-transactions.js';
export * from './network-generation-error.js';
