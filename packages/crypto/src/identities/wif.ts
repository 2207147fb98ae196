import { decodeBase58Check, encodeBase58Check } from '../encoding/base58check.js';
import type { NetworkParams } from '../networks/network-params.js';
import { assertByte } from './version-byte.js';
import { IdentityError } from './identity-error.js';
import { keysFromPrivateKey, type KeyPair } from './keys.js';

// WIF payload: version byte ‖ 32-byte private key ‖ 0x01 (the "compressed public key" flag).
const COMPRESSED_WIF_LENGTH = 34;

/** The key pair of a WIF; with `network`, its version byte must be the network's `wif`. */
export function keysFromWif(wif: string, network?: Pick<NetworkParams, 'wif'>): KeyPair {
  let payload: Buffer;
  try {
    payload = decodeBase58Check(wif);
  } catch (error) {
    throw new IdentityError('ERR_INVALID_WIF', `wif: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (payload.length === 33) {
    throw new IdentityError(
      'ERR_INVALID_WIF',
      'wif: uncompressed-key WIF is not supported (ARK 3.0 uses compressed public keys)',
    );
  }
  if (payload.length !== COMPRESSED_WIF_LENGTH || payload[33] !== 0x01) {
    throw new IdentityError(
      'ERR_INVALID_WIF',
      `wif: expected 34 bytes ending in 0x01 after decoding, got ${payload.length} bytes`,
    );
  }
  const version = payload[0];
  if (network !== undefined && version !== network.wif) {
    throw new IdentityError(
      'ERR_INVALID_WIF',
      `wif: version byte ${version} does not match the network's wif ${network.wif}`,
    );
  }
  return keysFromPrivateKey(payload.subarray(1, 33));
}

/** The WIF of a key pair for a network: base58check(wif byte ‖ private key ‖ 0x01). */
export function wifFromKeys(keys: KeyPair, network: Pick<NetworkParams, 'wif'>): string {
  if (!Buffer.isBuffer(keys?.privateKey) || keys.privateKey.length !== 32) {
    throw new IdentityError('ERR_INVALID_PRIVATE_KEY', 'keys.privateKey: expected 32 bytes');
  }
  assertByte(network.wif, 'network.wif');
  const payload = Buffer.alloc(COMPRESSED_WIF_LENGTH);
  payload[0] = network.wif;
  keys.privateKey.copy(payload, 1);
  payload[33] = 0x01;
  return encodeBase58Check(payload);
}
