export * from './wallets/errors.js';
export * from './wallets/fields.js';
export * from './wallets/wallet.js';
export * from './wallets/last-block.js';
export * from './wallets/wallet-change.js';
export * from './wallets/wallet-repository.js';
export type { Bound, FieldIndex, WalletSlot } from './wallets/field-index.js';
export type * from './wallets/wallet-store.js';
export * from './wallets/query/wallet-query.js';
export { coerceValue } from './wallets/query/compiled-condition.js';
export { cursorOf, readCursor, type CursorValues } from './wallets/query/wallet-cursor.js';
export * from './wallets/query/delegate-fields.js';
export * from './wallets/query/wallet-query-engine.js';
export * from './wallets/replica/cost-routed-queries.js';
export { WalletReplica, type WalletReplicaOptions } from './wallets/replica/wallet-replica.js';
export * from './dpos/block-reward.js';
export * from './dpos/delegate-ranking.js';
export * from './dpos/forging-order.js';
export * from './dpos/vote-balances.js';
export * from './plugin.js';
export * from './handlers/transaction-rule-error.js';
export type * from './handlers/transaction-handler.js';
export * from './handlers/registry.js';
export { staticFee } from './handlers/sender.js';
export { storedTransactionOf } from './blocks/database-block-store.js';
export { statePlugin as default } from './plugin.js';
export * from './rounds/round-keeper.js';
export * from './blocks/supply-counter.js';
export * from './adapters/state-ledger-reader.js';
export * from './adapters/ledger-forging-source.js';
export type * from './config.js';
export type * from './blocks/committed-block.js';
export type { AppliedBlockEvent, AppliedBlockEventName } from './blocks/chain-events.js';
export {
  appliedBlockEvents,
  emitBlockApplied,
  type AppliedBlockContext,
} from './blocks/chain-events.js';
export type { ElectedRound, ElectionLog } from './rounds/election-log.js';
export * from './storage/missed-slot-storage.js';
export * from './storage/pool-storage.js';
export * from './storage/state-schema.js';
export * from './wallets/wallet-row.js';
export * from './storage/chain-rollback.js';
