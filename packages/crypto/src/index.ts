export * from './encoding/index.js';
export * from './hashing/index.js';
export * from './identities/index.js';
export * from './networks/index.js';
export * from './signatures/index.js';
export * from './verification/index.js';
