export * from './kernel-error.js';
