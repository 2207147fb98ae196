/**
 * What a command needs to ask a peer something without running the p2p plugin (`kernel
 * snapshot:restore` asks peers for a block): the client, its connection and the seed list. A
 * subpath of its own, so that importing it does not declare the plugin's services.
 */
export * from './limits/outgoing-throttle.js';
export * from './peers/peer-client.js';
export * from './peers/seed-list.js';
export * from './transport/peer-connection.js';
