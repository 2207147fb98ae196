import { createHash } from 'node:crypto';

// node:crypto hashes run in OpenSSL, so they stay native whichever secp256k1 backend is active.

/** SHA-256 of `data`. */
export function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** RIPEMD-160 of `data`. */
export function ripemd160(data: Uint8Array): Buffer {
  return createHash('ripemd160').update(data).digest();
}

/** RIPEMD-160 of the SHA-256 of `data` (Bitcoin's HASH160). */
export function hash160(data: Uint8Array): Buffer {
  return ripemd160(sha256(data));
}

/** Double SHA-256 of `data` (Bitcoin's HASH256). */
export function hash256(data: Uint8Array): Buffer {
  return sha256(sha256(data));
}
