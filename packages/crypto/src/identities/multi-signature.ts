import { secp256k1 } from '../signatures/backend.js';
import { addressFromPublicKey } from './address.js';
import { IdentityError } from './identity-error.js';
import { keysFromPassphrase } from './keys.js';
import { publicKeyBytes } from './public-key.js';

/**
 * The public key of a multisignature wallet as ARK 3.0 derives it: the point sum of the key of
 * the passphrase "<min as two hex digits>" and every participant key, in the given order.
 */
export function multiSignaturePublicKey(min: number, publicKeys: readonly string[]): string {
  if (!Array.isArray(publicKeys) || publicKeys.length === 0) {
    throw new IdentityError('ERR_INVALID_MULTISIGNATURE', 'publicKeys: expected a non-empty list');
  }
  const participants = publicKeys.map((key, index) => publicKeyBytes(key, `publicKeys[${index}]`));
  if (!Number.isInteger(min) || min < 1 || min > publicKeys.length) {
    throw new IdentityError(
      'ERR_INVALID_MULTISIGNATURE',
      `min: expected an integer from 1 to ${publicKeys.length} (the number of keys), got ${String(min)}`,
    );
  }
  const minKey = keysFromPassphrase(min.toString(16).padStart(2, '0')).publicKey;
  try {
    return secp256k1.publicKeyCombine([minKey, ...participants], true).toString('hex');
  } catch (error) {
    // Only keys chosen to cancel each other out sum to the point at infinity.
    throw new IdentityError(
      'ERR_INVALID_MULTISIGNATURE',
      'publicKeys: the keys sum to the point at infinity, which has no public key',
      { cause: error },
    );
  }
}

/** The address of a multisignature wallet (min of the public keys) on a network. */
export function multiSignatureAddress(
  min: number,
  publicKeys: readonly string[],
  pubKeyHash: number,
): string {
  return addressFromPublicKey(multiSignaturePublicKey(min, publicKeys), pubKeyHash);
}
