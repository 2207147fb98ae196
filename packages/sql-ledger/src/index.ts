export * from './config.js';
export * from './head/ledger-head.js';
export * from './head/head-follower.js';
export * from './search/sql-wallet-search.js';
export * from './search/wallet-search-sql.js';
export * from './sql-ledger-reader.js';
export * from './plugin.js';
export { sqlLedgerPlugin as default } from './plugin.js';
