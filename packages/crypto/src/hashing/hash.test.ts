import { describe, expect, it } from 'vitest';
import { hash160, hash256, ripemd160, sha256 } from './index.js';

// Published test vectors: FIPS 180-2 ("abc"), the RIPEMD-160 paper, and Bitcoin's HASH160 of
// the secp256k1 generator point (address 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH).
describe('hashing', () => {
  it('computes the standard SHA-256 and double SHA-256 of "abc"', () => {
    const abc = Buffer.from('abc');
    expect(sha256(abc).toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hash256(abc).toString('hex')).toBe(
      '4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358',
    );
  });

  it('computes the standard RIPEMD-160 of "abc"', () => {
    expect(ripemd160(Buffer.from('abc')).toString('hex')).toBe(
      '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc',
    );
  });

  it('computes HASH160 of the generator point', () => {
    const generator = Buffer.from(
      '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
      'hex',
    );
    expect(hash160(generator).toString('hex')).toBe('751e76e8199196d454941c45d1b3a323f1433bd6');
  });

  it('accepts plain Uint8Arrays and returns Buffers', () => {
    expect(Buffer.isBuffer(sha256(new Uint8Array([1, 2, 3])))).toBe(true);
  });
});
