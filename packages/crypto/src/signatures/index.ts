export { cryptoBackend, type CryptoBackend } from './backend.js';
export * from './ecdsa.js';
export * from './schnorr.js';
export * from './signature-error.js';
