// Test helpers for packages that need a P2P node in their tests (the forger's relay client).
export * from './eventually.js';
export * from './memory-chain.js';
export * from './test-client.js';
export * from './test-node.js';
