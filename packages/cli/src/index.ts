export * from './config/publish.js';
export * from './networks.js';
export * from './program.js';
export { allowLoopbackPeers } from './local-network/prepare.js';
