export * from './base58check.js';
