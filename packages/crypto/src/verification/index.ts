export * from './verification-item.js';
export * from './verification-pool.js';
export * from './verification-pool-error.js';
