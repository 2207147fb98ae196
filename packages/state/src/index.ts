export * from './wallets/errors.js';
export * from './wallets/fields.js';
export * from './wallets/wallet.js';
export * from './wallets/wallet-change.js';
export * from './wallets/wallet-repository.js';
export type { FieldIndex, WalletSlot } from './wallets/field-index.js';
export * from './wallets/query/wallet-query.js';
export * from './wallets/query/delegate-fields.js';
export * from './wallets/query/wallet-query-engine.js';
