import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { forgingOrder } from './forging-order.js';

describe('forgingOrder', () => {
  it('swaps with positions from sha256 of the round number, skipping every fifth as ARK 3.0 does', () => {
    // sha256("1") = 6b86b273...: 0x6b%5=2, 0x86%5=4, 0xb2%5=3, 0x73%5=0; position 4 is not swapped from.
    expect(createHash('sha256').update('1').digest().subarray(0, 4).toString('hex')).toBe(
      '6b86b273',
    );
    expect(forgingOrder(1, ['A', 'B', 'C', 'D', 'E'])).toEqual(['A', 'E', 'D', 'C', 'B']);
  });

  it('re-hashes the seed after each group of four swaps', () => {
    // Round 1 with six delegates: bytes 6b 86 b2 73 give targets 5, 2, 4, 1 for positions 0-3,
    // position 4 is skipped, and position 5 swaps with sha256(seed)[0] % 6.
    const afterFour = ['F', 'D', 'E', 'C', 'B', 'A'];
    const seed = createHash('sha256').update('1').digest();
    const target = (createHash('sha256').update(seed).digest()[0] as number) % 6;
    const expected = [...afterFour];
    [expected[5], expected[target]] = [expected[target] as string, expected[5] as string];
    expect(forgingOrder(1, ['A', 'B', 'C', 'D', 'E', 'F'])).toEqual(expected);
  });

  it('differs from round to round and leaves the input untouched', () => {
    const delegates = Array.from({ length: 51 }, (_, i) => `d${i}`);
    expect(forgingOrder(2, delegates)).not.toEqual(forgingOrder(3, delegates));
    expect(delegates[0]).toBe('d0');
  });
});
