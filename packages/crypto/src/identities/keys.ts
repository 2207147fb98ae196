import { sha256 } from '../hashing/hash.js';
import { secp256k1 } from '../signatures/backend.js';
import { IdentityError } from './identity-error.js';

/** A secp256k1 key pair: 33-byte compressed public key and 32-byte private key. */
export interface KeyPair {
  readonly publicKey: Buffer;
  readonly privateKey: Buffer;
}

/** The key pair of a passphrase as ARK derives it: private key = sha256(utf8 passphrase). */
export function keysFromPassphrase(passphrase: string): KeyPair {
  if (typeof passphrase !== 'string') {
    throw new IdentityError(
      'ERR_INVALID_PRIVATE_KEY',
      `passphrase: expected a string, got ${typeof passphrase}`,
    );
  }
  return keysFromPrivateKey(sha256(Buffer.from(passphrase, 'utf8')));
}

/** The key pair of a 32-byte private key in [1, n-1]. */
export function keysFromPrivateKey(privateKey: Buffer): KeyPair {
  if (!Buffer.isBuffer(privateKey) || privateKey.length !== 32) {
    const got = Buffer.isBuffer(privateKey) ? `${privateKey.length} bytes` : typeof privateKey;
    throw new IdentityError('ERR_INVALID_PRIVATE_KEY', `privateKey: expected 32 bytes, got ${got}`);
  }
  if (!secp256k1.privateKeyVerify(privateKey)) {
    throw new IdentityError(
      'ERR_INVALID_PRIVATE_KEY',
      'privateKey: out of range (must be between 1 and the curve order minus 1)',
    );
  }
  return {
    publicKey: secp256k1.publicKeyCreate(privateKey, true),
    privateKey: Buffer.from(privateKey),
  };
}
