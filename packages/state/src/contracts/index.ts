// The ledger's services as other plugins use them, types only (and one constant, the NOTIFY
// channel): importing this entry declares the names in the kernel's Cradle and EventMap without
// loading the state plugin.
export { BLOCK_COMMITTED_CHANNEL, type BlockCommittedPayload } from './block-committed.js';
export type * from './chain.js';
export type * from './events.js';
export type * from './forging.js';
export type * from './ledger.js';
export type * from './pool.js';
export type * from './storage.js';
import './events.js';
import './services.js';
