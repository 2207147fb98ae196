export * from './address.js';
export * from './identity-error.js';
export * from './keys.js';
export * from './multi-signature.js';
export { isValidPublicKey } from './public-key.js';
export * from './wif.js';
