export * from './test-kernel.js';
export * from './test-command.js';
