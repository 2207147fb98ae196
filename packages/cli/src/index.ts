export * from './config/publish.js';
export * from './networks.js';
export * from './program.js';
