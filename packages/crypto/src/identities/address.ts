import { decodeBase58Check, encodeBase58Check } from '../encoding/base58check.js';
import { ripemd160 } from '../hashing/hash.js';
import { IdentityError } from './identity-error.js';
import { keysFromPassphrase } from './keys.js';
import { publicKeyBytes } from './public-key.js';
import { assertByte } from './version-byte.js';

const ADDRESS_BYTES = 21;

// Ledger and API derive the same few thousand addresses over and over, and each derivation
// checks the key is on the curve: remember the most recent ones (bounded, oldest dropped first).
const MAX_REMEMBERED = 16_384;
const remembered = new Map<string, string>();

/** The address of a public key: base58check(pubKeyHash ‖ ripemd160(public key)). */
export function addressFromPublicKey(publicKey: Buffer | string, pubKeyHash: number): string {
  assertByte(pubKeyHash, 'pubKeyHash');
  const key = `${pubKeyHash}:${typeof publicKey === 'string' ? publicKey : publicKey.toString('hex')}`;
  const known = remembered.get(key);
  if (known !== undefined) return known;
  const payload = Buffer.alloc(ADDRESS_BYTES);
  payload[0] = pubKeyHash;
  ripemd160(publicKeyBytes(publicKey)).copy(payload, 1);
  const address = encodeBase58Check(payload);
  if (remembered.size >= MAX_REMEMBERED) {
    remembered.delete(remembered.keys().next().value as string);
  }
  remembered.set(key, address);
  return address;
}

/** The address of a passphrase's key pair. */
export function addressFromPassphrase(passphrase: string, pubKeyHash: number): string {
  return addressFromPublicKey(keysFromPassphrase(passphrase).publicKey, pubKeyHash);
}

/** The 21 bytes of an address (version byte ‖ ripemd160), as transactions serialize it. */
export function addressToBuffer(address: string): Buffer {
  let payload: Buffer;
  try {
    payload = decodeBase58Check(address);
  } catch (error) {
    throw new IdentityError('ERR_INVALID_ADDRESS', `address: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (payload.length !== ADDRESS_BYTES) {
    throw new IdentityError(
      'ERR_INVALID_ADDRESS',
      `address: "${address}" decodes to ${payload.length} bytes, expected ${ADDRESS_BYTES}`,
    );
  }
  return payload;
}

/** The address text of 21 address bytes. */
export function addressFromBuffer(buffer: Buffer): string {
  if (!Buffer.isBuffer(buffer) || buffer.length !== ADDRESS_BYTES) {
    const got = Buffer.isBuffer(buffer) ? `${buffer.length} bytes` : typeof buffer;
    throw new IdentityError('ERR_INVALID_ADDRESS', `address buffer: expected 21 bytes, got ${got}`);
  }
  return encodeBase58Check(buffer);
}

/** Whether `address` is a well-formed address of the network with this pubKeyHash. */
export function isValidAddress(address: string, pubKeyHash: number): boolean {
  if (typeof address !== 'string' || address.length > 64) return false;
  let payload: Buffer;
  try {
    payload = decodeBase58Check(address);
  } catch {
    // A predicate answers "no" for text that is not base58check at all.
    return false;
  }
  return payload.length === ADDRESS_BYTES && payload[0] === pubKeyHash;
}
