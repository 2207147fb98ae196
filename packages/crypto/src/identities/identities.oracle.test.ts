import { Identities, Managers } from '@arkecosystem/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addressFromBuffer,
  addressFromPassphrase,
  addressFromPublicKey,
  addressToBuffer,
  isValidAddress,
  isValidPublicKey,
  keysFromPassphrase,
  keysFromPrivateKey,
  keysFromWif,
  multiSignatureAddress,
  multiSignaturePublicKey,
  wifFromKeys,
} from './index.js';

const RUNS = 1000;
// ARK treats a version byte of 0 as "use the configured network", so the oracle compares 1-255.
const versionByte = fc.integer({ min: 1, max: 255 });
const privateKey = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => Buffer.from(bytes))
  .filter((key) => key.some((byte) => byte !== 0) && key[0] !== 0xff);

beforeAll(() => {
  Managers.configManager.setFromPreset('testnet');
});

describe('identities agree with ARK 3.0 (@arkecosystem/crypto 3.12.0)', () => {
  it('derives the same keys and address from a passphrase', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        versionByte,
        (phrase, pubKeyHash) => {
          const ours = keysFromPassphrase(phrase);
          const theirs = Identities.Keys.fromPassphrase(phrase);
          expect(ours.publicKey.toString('hex')).toBe(theirs.publicKey);
          expect(ours.privateKey.toString('hex')).toBe(theirs.privateKey);
          expect(addressFromPassphrase(phrase, pubKeyHash)).toBe(
            Identities.Address.fromPassphrase(phrase, pubKeyHash),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('derives the same public key, address and address bytes from a private key', () => {
    fc.assert(
      fc.property(privateKey, versionByte, (key, pubKeyHash) => {
        const ours = keysFromPrivateKey(key);
        const theirs = Identities.Keys.fromPrivateKey(key);
        expect(ours.publicKey.toString('hex')).toBe(theirs.publicKey);
        const address = addressFromPublicKey(ours.publicKey, pubKeyHash);
        expect(address).toBe(Identities.Address.fromPublicKey(theirs.publicKey, pubKeyHash));
        expect(addressToBuffer(address)).toEqual(
          Identities.Address.toBuffer(address, pubKeyHash).addressBuffer,
        );
        expect(addressFromBuffer(addressToBuffer(address))).toBe(address);
        expect(isValidAddress(address, pubKeyHash)).toBe(true);
        expect(isValidAddress(address, (pubKeyHash + 1) % 256)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it('writes and reads the same WIF', () => {
    fc.assert(
      fc.property(privateKey, fc.integer({ min: 0, max: 255 }), (key, wif) => {
        const keys = keysFromPrivateKey(key);
        const network = { wif };
        const text = wifFromKeys(keys, network);
        const theirKeys = { ...Identities.Keys.fromPrivateKey(key), compressed: true };
        expect(text).toBe(Identities.WIF.fromKeys(theirKeys, network as never));
        expect(keysFromWif(text, network)).toEqual(keys);
        expect(Identities.Keys.fromWIF(text, network as never).publicKey).toBe(
          keys.publicKey.toString('hex'),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('derives the same multisignature public key and address', () => {
    const participants = fc.uniqueArray(privateKey, {
      minLength: 1,
      maxLength: 16,
      selector: (key) => key.toString('hex'),
    });
    fc.assert(
      fc.property(participants, fc.nat(), versionByte, (keys, seed, pubKeyHash) => {
        const publicKeys = keys.map((key) => keysFromPrivateKey(key).publicKey.toString('hex'));
        const min = (seed % publicKeys.length) + 1;
        const asset = { min, publicKeys };
        expect(multiSignaturePublicKey(min, publicKeys)).toBe(
          Identities.PublicKey.fromMultiSignatureAsset(asset),
        );
        expect(multiSignatureAddress(min, publicKeys, pubKeyHash)).toBe(
          Identities.Address.fromMultiSignatureAsset(asset, pubKeyHash),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('judges 33-byte public keys valid exactly when ARK does', () => {
    const candidate = fc.oneof(
      fc.uint8Array({ minLength: 33, maxLength: 33 }).map((bytes) => {
        bytes[0] = 2 + (bytes[0]! % 2);
        return Buffer.from(bytes).toString('hex');
      }),
      privateKey.map((key) => keysFromPrivateKey(key).publicKey.toString('hex')),
    );
    fc.assert(
      fc.property(candidate, (hex) => {
        expect(isValidPublicKey(hex)).toBe(Identities.PublicKey.verify(hex));
        expect(isValidPublicKey(Buffer.from(hex, 'hex'))).toBe(Identities.PublicKey.verify(hex));
      }),
      { numRuns: RUNS },
    );
  });

  it('judges mutated addresses valid exactly when ARK does', () => {
    const mutated = fc
      .tuple(
        privateKey,
        versionByte,
        fc.nat(),
        fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'),
      )
      .map(([key, pubKeyHash, position, char]) => {
        const address = addressFromPublicKey(keysFromPrivateKey(key).publicKey, pubKeyHash);
        const at = position % address.length;
        return { address: address.slice(0, at) + char + address.slice(at + 1), pubKeyHash };
      });
    fc.assert(
      fc.property(mutated, ({ address, pubKeyHash }) => {
        expect(isValidAddress(address, pubKeyHash)).toBe(
          Identities.Address.validate(address, pubKeyHash),
        );
      }),
      { numRuns: RUNS },
    );
  });
});
