// The protocol without the plugin: what a forger process needs to talk to a relay. Importing
// it does not load p2p's container declarations (`Cradle`), only messages and the handshake.
export type * from '../chain-port.js';
export type * from '../forging/forging-port.js';
export * from './handshake.js';
export * from './message-names.js';
export * from './messages.js';
