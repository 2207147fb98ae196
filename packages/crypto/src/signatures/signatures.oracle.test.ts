import { Crypto } from '@arkecosystem/crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keysFromPrivateKey } from '../identities/keys.js';
import { signEcdsa, signSchnorr, verifyEcdsa, verifySchnorr } from './index.js';

const RUNS = 1000;
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b));
const privateKey = bytes32.filter((key) => key.some((byte) => byte !== 0) && key[0] !== 0xff);

function arkKeys(key: Buffer) {
  const { publicKey } = keysFromPrivateKey(key);
  return {
    publicKey: publicKey.toString('hex'),
    privateKey: key.toString('hex'),
    compressed: true,
  };
}

/** ARK's verifyECDSA throws on some malformed DER; for a verifier that means "not valid". */
function arkVerifiesEcdsa(hash: Buffer, signature: Buffer, publicKey: Buffer): boolean {
  try {
    return Crypto.Hash.verifyECDSA(hash, signature, publicKey);
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return false;
  }
}

describe('signatures agree with ARK 3.0 (@arkecosystem/crypto 3.12.0)', () => {
  it("Schnorr: ARK verifies ours, we verify ARK's, and both are the same bytes", () => {
    fc.assert(
      fc.property(bytes32, privateKey, (hash, key) => {
        const { publicKey } = keysFromPrivateKey(key);
        const ours = signSchnorr(hash, key);
        const theirs = Buffer.from(Crypto.Hash.signSchnorr(hash, arkKeys(key)), 'hex');
        expect(ours).toHaveLength(64);
        expect(Crypto.Hash.verifySchnorr(hash, ours, publicKey)).toBe(true);
        expect(verifySchnorr(hash, theirs, publicKey)).toBe(true);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: RUNS },
    );
  });

  it("ECDSA: RFC 6979 gives the same DER bytes, and each verifies the other's", () => {
    fc.assert(
      fc.property(bytes32, privateKey, (hash, key) => {
        const { publicKey } = keysFromPrivateKey(key);
        const ours = signEcdsa(hash, key);
        const theirs = Buffer.from(Crypto.Hash.signECDSA(hash, arkKeys(key)), 'hex');
        expect(ours.toString('hex')).toBe(theirs.toString('hex'));
        expect(Crypto.Hash.verifyECDSA(hash, ours, publicKey)).toBe(true);
        expect(verifyEcdsa(hash, theirs, publicKey)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('ECDSA: accepts a mutated DER signature exactly when ARK does', () => {
    const mutation = fc.oneof(
      fc.record({
        op: fc.constant('set' as const),
        at: fc.nat(),
        value: fc.integer({ min: 0, max: 255 }),
      }),
      fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ op: fc.constant('append' as const), value: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ op: fc.constant('pad' as const), which: fc.constantFrom('r', 's') }),
      fc.record({ op: fc.constant('highS' as const) }),
    );
    fc.assert(
      fc.property(bytes32, privateKey, mutation, (hash, key, change) => {
        const { publicKey } = keysFromPrivateKey(key);
        const mutated = mutate(signEcdsa(hash, key), change);
        expect(verifyEcdsa(hash, mutated, publicKey)).toBe(
          arkVerifiesEcdsa(hash, mutated, publicKey),
        );
      }),
      { numRuns: RUNS },
    );
  });
});

type Mutation =
  | { op: 'set'; at: number; value: number }
  | { op: 'cut'; at: number }
  | { op: 'append'; value: number }
  | { op: 'pad'; which: 'r' | 's' }
  | { op: 'highS' };

const ORDER = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

function mutate(der: Buffer, change: Mutation): Buffer {
  const copy = Buffer.from(der);
  const rLength = der[3]!;
  const r = der.subarray(4, 4 + rLength);
  const s = der.subarray(6 + rLength);
  switch (change.op) {
    case 'set':
      copy[change.at % copy.length] = change.value;
      return copy;
    case 'cut':
      return copy.subarray(0, change.at % copy.length);
    case 'append':
      return Buffer.concat([copy, Buffer.of(change.value)]);
    case 'pad':
      // A redundant leading zero: valid BER, not strict DER.
      return encodeDer(
        change.which === 'r' ? Buffer.concat([Buffer.of(0), r]) : r,
        change.which === 's' ? Buffer.concat([Buffer.of(0), s]) : s,
      );
    case 'highS': {
      const high = ORDER - BigInt(`0x${s.toString('hex')}`);
      return encodeDer(r, integerBytes(high));
    }
  }
}

function integerBytes(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return bytes[0]! >= 0x80 ? Buffer.concat([Buffer.of(0), bytes]) : bytes;
}

function encodeDer(r: Buffer, s: Buffer): Buffer {
  return Buffer.concat([
    Buffer.of(0x30, 4 + r.length + s.length, 0x02, r.length),
    r,
    Buffer.of(0x02, s.length),
    s,
  ]);
}
