// The protocol without the plugin: what a forger process needs to talk to a relay (ARK's or
// ours). Importing it does not load p2p's container declarations (`Cradle`).
export * from '../errors.js';
export * from '../transport/peer-connection.js';
export * from './codecs.js';
export * from './current-round.js';
export * from './frame.js';
export * from './internal-messages.js';
export type * from './messages.js';
export * from './routes.js';
export * from './wire-error.js';
