import { describe, expect, it } from 'vitest';
import { encodeBase58Check } from '../encoding/base58check.js';
import {
  addressFromBuffer,
  addressFromPublicKey,
  addressToBuffer,
  IdentityError,
  isValidAddress,
  isValidPublicKey,
  keysFromPassphrase,
  keysFromPrivateKey,
  keysFromWif,
  multiSignaturePublicKey,
  wifFromKeys,
} from './index.js';

// secp256k1 group order n: private keys must lie in [1, n-1].
const ORDER = Buffer.from(
  'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141',
  'hex',
);
const devnet = { wif: 170, pubKeyHash: 30 };

function identityError(run: () => unknown): IdentityError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(IdentityError);
    return error as IdentityError;
  }
  throw new Error('expected an IdentityError');
}

describe('identities', () => {
  it('matches the documented ARK key pair and address of a known passphrase', () => {
    // From ARK's own test fixtures (devnet address of "this is a top secret passphrase").
    const keys = keysFromPassphrase('this is a top secret passphrase');
    expect(keys.publicKey.toString('hex')).toBe(
      '034151a3ec46b5670a682b0a63394f863587d1bc97483b1b6c70eb58e7f0aed192',
    );
    expect(addressFromPublicKey(keys.publicKey, 30)).toBe('D61mfSggzbvQgTUe6JhYKH2doHaqJ3Dyib');
  });

  it('rejects private keys outside [1, n-1] with ERR_INVALID_PRIVATE_KEY', () => {
    for (const key of [Buffer.alloc(32), ORDER, Buffer.alloc(31, 1), Buffer.alloc(33, 1)]) {
      const error = identityError(() => keysFromPrivateKey(key));
      expect(error.code).toBe('ERR_INVALID_PRIVATE_KEY');
      expect(error.message).toMatch(/^privateKey: /);
    }
  });

  it('returns keys that do not alias the caller buffer', () => {
    const key = Buffer.alloc(32, 7);
    const keys = keysFromPrivateKey(key);
    key.fill(0);
    expect(keys.privateKey).toEqual(Buffer.alloc(32, 7));
  });

  it('rejects a WIF of another network, an uncompressed WIF and a bad checksum', () => {
    const keys = keysFromPassphrase('wif');
    const mainnetWif = wifFromKeys(keys, { wif: 170 + 1 });
    expect(identityError(() => keysFromWif(mainnetWif, devnet)).message).toContain(
      'version byte 171 does not match',
    );
    expect(keysFromWif(mainnetWif)).toEqual(keys);
    const uncompressed = encodeBase58Check(Buffer.concat([Buffer.of(170), keys.privateKey]));
    expect(identityError(() => keysFromWif(uncompressed)).message).toContain('uncompressed');
    const broken = wifFromKeys(keys, devnet).slice(0, -1) + 'z';
    expect(identityError(() => keysFromWif(broken)).code).toBe('ERR_INVALID_WIF');
  });

  it('rejects addresses with a bad checksum or the wrong length, naming the reason', () => {
    const address = addressFromPublicKey(keysFromPassphrase('a').publicKey, 30);
    const tampered = address.slice(0, 5) + (address[5] === 'x' ? 'y' : 'x') + address.slice(6);
    const checksum = identityError(() => addressToBuffer(tampered));
    expect(checksum.code).toBe('ERR_INVALID_ADDRESS');
    expect(checksum.message).toMatch(/checksum/i);
    const short = encodeBase58Check(Buffer.alloc(20, 1));
    expect(identityError(() => addressToBuffer(short)).message).toContain('20 bytes, expected 21');
    expect(identityError(() => addressFromBuffer(Buffer.alloc(20))).code).toBe(
      'ERR_INVALID_ADDRESS',
    );
    expect(isValidAddress(tampered, 30)).toBe(false);
    expect(isValidAddress('0OIl', 30)).toBe(false);
    expect(isValidAddress(short, 1)).toBe(false);
  });

  it('refuses to derive an address from an invalid public key or version byte', () => {
    const notOnCurve = '02' + 'ff'.repeat(32);
    expect(identityError(() => addressFromPublicKey(notOnCurve, 30)).code).toBe(
      'ERR_INVALID_PUBLIC_KEY',
    );
    const key = keysFromPassphrase('a').publicKey;
    expect(identityError(() => addressFromPublicKey(key, 256)).message).toContain('pubKeyHash');
  });

  it('accepts only 33-byte compressed public keys', () => {
    const key = keysFromPassphrase('a').publicKey;
    expect(isValidPublicKey(key)).toBe(true);
    expect(isValidPublicKey(key.toString('hex'))).toBe(true);
    expect(isValidPublicKey(key.toString('hex').toUpperCase())).toBe(true);
    expect(isValidPublicKey(Buffer.concat([Buffer.of(4), key.subarray(1), key.subarray(1)]))).toBe(
      false,
    );
    expect(isValidPublicKey('zz' + key.toString('hex').slice(2))).toBe(false);
    expect(isValidPublicKey(key.subarray(0, 32))).toBe(false);
  });

  it('names the bad participant key or the bad minimum of a multisignature asset', () => {
    const keys = ['a', 'b', 'c'].map((phrase) =>
      keysFromPassphrase(phrase).publicKey.toString('hex'),
    );
    const badKey = identityError(() => multiSignaturePublicKey(2, [keys[0]!, keys[1]!, 'nope']));
    expect(badKey.message).toMatch(/^publicKeys\[2\]: /);
    for (const min of [0, 4, 1.5]) {
      const badMin = identityError(() => multiSignaturePublicKey(min, keys));
      expect(badMin.code).toBe('ERR_INVALID_MULTISIGNATURE');
      expect(badMin.message).toMatch(/^min: expected an integer from 1 to 3/);
    }
    expect(identityError(() => multiSignaturePublicKey(1, [])).message).toMatch(/^publicKeys: /);
  });
});
