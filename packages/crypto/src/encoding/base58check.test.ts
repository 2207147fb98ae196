import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase58Check, encodeBase58Check, EncodingError } from './index.js';

describe('base58check', () => {
  it('encodes a known Bitcoin address payload', () => {
    // Version 0 ‖ HASH160 of the secp256k1 generator: a well-known mainnet address.
    const payload = Buffer.from('00751e76e8199196d454941c45d1b3a323f1433bd6', 'hex');
    expect(encodeBase58Check(payload)).toBe('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH');
    expect(decodeBase58Check('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH')).toEqual(payload);
  });

  it('round-trips any payload', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(decodeBase58Check(encodeBase58Check(bytes))).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects a wrong checksum, a bad character and non-strings with EncodingError', () => {
    const text = encodeBase58Check(Buffer.from('hello'));
    const tampered = text.slice(0, -1) + (text.endsWith('2') ? '3' : '2');
    for (const bad of [tampered, '0OIl', '', 42 as unknown as string]) {
      expect(() => decodeBase58Check(bad)).toThrow(EncodingError);
    }
    expect(() => decodeBase58Check(tampered)).toThrow(/checksum/i);
  });
});
