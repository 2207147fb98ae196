export * from './test-kernel.js';
