import { secp256k1 } from '../signatures/backend.js';
import { IdentityError } from './identity-error.js';

const COMPRESSED_HEX = /^0[23][0-9a-fA-F]{64}$/;

/**
 * Whether the value is a 33-byte compressed secp256k1 point (Buffer or hex). ARK 3.0 would also
 * take 65-byte uncompressed keys here, but its wire formats only carry compressed ones.
 */
export function isValidPublicKey(publicKey: Buffer | string): boolean {
  if (typeof publicKey === 'string') {
    return (
      COMPRESSED_HEX.test(publicKey) && secp256k1.publicKeyVerify(Buffer.from(publicKey, 'hex'))
    );
  }
  if (!Buffer.isBuffer(publicKey) || publicKey.length !== 33) return false;
  return (publicKey[0] === 2 || publicKey[0] === 3) && secp256k1.publicKeyVerify(publicKey);
}

/** The public key as bytes, or an IdentityError naming `field` and why it is not a valid key. */
export function publicKeyBytes(publicKey: Buffer | string, field = 'publicKey'): Buffer {
  if (!isValidPublicKey(publicKey)) {
    throw new IdentityError(
      'ERR_INVALID_PUBLIC_KEY',
      `${field}: not a 33-byte compressed secp256k1 public key (${describe(publicKey)})`,
    );
  }
  return typeof publicKey === 'string' ? Buffer.from(publicKey, 'hex') : publicKey;
}

function describe(value: unknown): string {
  if (typeof value === 'string') {
    return value.length > 70 ? `"${value.slice(0, 67)}..."` : `"${value}"`;
  }
  if (Buffer.isBuffer(value))
    return `${value.length} bytes, first 0x${value.subarray(0, 1).toString('hex')}`;
  return typeof value;
}
