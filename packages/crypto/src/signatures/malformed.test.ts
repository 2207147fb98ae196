import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keysFromPassphrase } from '../identities/keys.js';
import {
  SignatureError,
  signEcdsa,
  signSchnorr,
  verifyEcdsa,
  verifySchnorr,
  verifySchnorrBatch,
} from './index.js';

const keys = keysFromPassphrase('malformed input');
const hash = Buffer.alloc(32, 9);
const schnorr = signSchnorr(hash, keys.privateKey);
const ecdsa = signEcdsa(hash, keys.privateKey);

describe('verification of malformed input returns false, never throws', () => {
  it('accepts the untouched signatures (so the false results below mean something)', () => {
    expect(verifySchnorr(hash, schnorr, keys.publicKey)).toBe(true);
    expect(verifyEcdsa(hash, ecdsa, keys.publicKey)).toBe(true);
  });

  it('rejects truncated, extended and random signatures and keys', () => {
    const cases: [Buffer, Buffer, Buffer][] = [
      [hash, schnorr.subarray(0, 63), keys.publicKey],
      [hash, Buffer.concat([schnorr, Buffer.of(0)]), keys.publicKey],
      [hash, Buffer.alloc(0), keys.publicKey],
      [hash, schnorr, keys.publicKey.subarray(0, 32)],
      [hash, schnorr, Buffer.alloc(33)],
      [hash.subarray(0, 31), schnorr, keys.publicKey],
      [Buffer.alloc(0), schnorr, keys.publicKey],
    ];
    for (const [h, s, k] of cases) expect(verifySchnorr(h, s, k)).toBe(false);
    const ecdsaCases: [Buffer, Buffer, Buffer][] = [
      [hash, ecdsa.subarray(0, ecdsa.length - 1), keys.publicKey],
      [hash, Buffer.concat([ecdsa, Buffer.of(0)]), keys.publicKey],
      [hash, Buffer.alloc(0), keys.publicKey],
      [hash, Buffer.of(0x30), keys.publicKey],
      [hash, Buffer.of(0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01), keys.publicKey],
      [hash, ecdsa, Buffer.alloc(33, 2)],
      [hash.subarray(1), ecdsa, keys.publicKey],
    ];
    for (const [h, s, k] of ecdsaCases) expect(verifyEcdsa(h, s, k)).toBe(false);
  });

  it('returns false for any random bytes in any position', () => {
    const bytes = fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b));
    fc.assert(
      fc.property(bytes, bytes, bytes, (h, s, k) => {
        expect(verifySchnorr(h, s, k)).toBe(false);
        expect(verifyEcdsa(h, s, k)).toBe(false);
        expect(verifySchnorrBatch([{ hash: h, signature: s, publicKey: k }])).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('returns false for values that are not bytes at all', () => {
    const junk = [undefined, null, 'aa', 42, {}, [1, 2]] as unknown as Buffer[];
    for (const value of junk) {
      expect(verifySchnorr(value, schnorr, keys.publicKey)).toBe(false);
      expect(verifySchnorr(hash, value, keys.publicKey)).toBe(false);
      expect(verifyEcdsa(hash, ecdsa, value)).toBe(false);
      expect(verifySchnorrBatch([{ hash, signature: value, publicKey: keys.publicKey }])).toBe(
        false,
      );
    }
    expect(verifySchnorrBatch([undefined as never])).toBe(false);
  });

  it('accepts plain Uint8Array views as well as Buffers', () => {
    const view = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length) as Buffer;
    expect(verifySchnorr(view(hash), view(schnorr), view(keys.publicKey))).toBe(true);
    expect(verifyEcdsa(view(hash), view(ecdsa), view(keys.publicKey))).toBe(true);
  });
});

describe('batch Schnorr verification', () => {
  const signed = Array.from({ length: 40 }, (_, index) => {
    const signer = keysFromPassphrase(`batch signer ${index}`);
    const message = randomBytes(32);
    return {
      hash: message,
      signature: signSchnorr(message, signer.privateKey),
      publicKey: signer.publicKey,
    };
  });

  it('accepts a batch of valid signatures by different keys, and an empty batch', () => {
    expect(verifySchnorrBatch(signed)).toBe(true);
    expect(verifySchnorrBatch([])).toBe(true);
  });

  it('rejects the batch when any one signature is wrong', () => {
    for (const index of [0, 17, 39]) {
      const broken = signed.map((item, i) =>
        i === index ? { ...item, hash: Buffer.alloc(32, 1) } : item,
      );
      expect(verifySchnorrBatch(broken)).toBe(false);
    }
  });
});

describe('signing rejects bad input with a typed error', () => {
  it('names the field and the reason', () => {
    const cases: [() => unknown, RegExp][] = [
      [
        () => signSchnorr(hash.subarray(1), keys.privateKey),
        /^hash: expected 32 bytes, got 31 bytes/,
      ],
      [() => signEcdsa(hash, Buffer.alloc(32)), /^privateKey: /],
      [() => signSchnorr(hash, 'key' as unknown as Buffer), /^privateKey: .*got string/],
    ];
    for (const [run, message] of cases) {
      expect(run).toThrow(SignatureError);
      expect(run).toThrow(message);
    }
  });
});
