import { describe, expect, it } from 'vitest';
import { conditionsHold } from './conditions.js';
import { MAX_MATCHED_TEXT, MAX_PATTERN_LENGTH, patternProblem } from './condition-pattern.js';

const data = {
  transaction: {
    amount: '100000000000000000001',
    fee: 10_000_000,
    vendorField: 'payroll for March',
    asset: { votes: ['+03abc'] },
    recipientId: 'AUexKjGtgsSpVzPLs6jNMM6vJ6znEVTQWK',
  },
  block: { height: 12, numberOfTransactions: 0 },
};
const holds = (key: string, condition: string, value?: unknown) =>
  conditionsHold([{ key, condition, value }], data);

describe("webhook conditions (ARK 3's operators)", () => {
  it('compares amounts beyond 2^53 exactly, as integers, and numbers as numbers', () => {
    expect(holds('transaction.amount', 'gt', '100000000000000000000')).toBe(true);
    expect(holds('transaction.amount', 'lte', '100000000000000000000')).toBe(false);
    expect(holds('transaction.amount', 'eq', '100000000000000000001')).toBe(true);
    expect(holds('transaction.fee', 'eq', '10000000')).toBe(true);
    expect(holds('transaction.fee', 'ne', 10_000_000)).toBe(false);
    expect(holds('block.height', 'gte', 12)).toBe(true);
    expect(holds('block.height', 'lt', 12)).toBe(false);
  });

  it('takes between and not-between with min and max, bounds included', () => {
    expect(holds('block.height', 'between', { min: 12, max: 20 })).toBe(true);
    expect(holds('block.height', 'between', { min: 13, max: 20 })).toBe(false);
    expect(holds('block.height', 'not-between', { min: 13, max: 20 })).toBe(true);
  });

  it('finds substrings and array elements with contains, and patterns with regexp', () => {
    expect(holds('transaction.vendorField', 'contains', 'payroll')).toBe(true);
    expect(holds('transaction.asset.votes', 'contains', '+03abc')).toBe(true);
    expect(holds('transaction.asset.votes', 'contains', '-03abc')).toBe(false);
    expect(holds('transaction.vendorField', 'regexp', '^payroll .* March$')).toBe(true);
    expect(holds('transaction.recipientId', 'regexp', '^D')).toBe(false);
  });

  it("runs regexp in linear time: the issue's ^(a+)+$ on 48 a and a ! answers at once", () => {
    const started = performance.now();
    const text = `${'a'.repeat(48)}!`;
    expect(conditionsHold([{ key: 'text', condition: 'regexp', value: '^(a+)+$' }], { text })).toBe(
      false,
    );
    expect(
      conditionsHold([{ key: 'text', condition: 'regexp', value: '^(a+)+!$' }], { text }),
    ).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('matches no text longer than the bound, and names what RE2 cannot compile', () => {
    const long = 'a'.repeat(MAX_MATCHED_TEXT + 1);
    expect(conditionsHold([{ key: 'v', condition: 'regexp', value: 'a' }], { v: long })).toBe(
      false,
    );
    expect(patternProblem('^payroll .* March$')).toBeUndefined();
    expect(patternProblem('(a)\\1')).toMatch(/invalid escape sequence/);
    expect(patternProblem('(?=a)')).toMatch(/invalid or unsupported Perl syntax/);
    expect(patternProblem('a'.repeat(MAX_PATTERN_LENGTH + 1))).toMatch(
      `longer than ${MAX_PATTERN_LENGTH} characters`,
    );
  });

  it('reads truthy and falsy, an absent field being falsy', () => {
    expect(holds('transaction.vendorField', 'truthy')).toBe(true);
    expect(holds('block.numberOfTransactions', 'falsy')).toBe(true);
    expect(holds('transaction.nothing', 'falsy')).toBe(true);
    expect(holds('transaction.nothing', 'truthy')).toBe(false);
  });

  it('needs every condition to hold, and a field named like an Object member is just absent', () => {
    expect(
      conditionsHold(
        [
          { key: 'block.height', condition: 'gt', value: 10 },
          { key: 'transaction.vendorField', condition: 'contains', value: 'March' },
        ],
        data,
      ),
    ).toBe(true);
    expect(
      conditionsHold(
        [
          { key: 'block.height', condition: 'gt', value: 10 },
          { key: 'transaction.vendorField', condition: 'contains', value: 'April' },
        ],
        data,
      ),
    ).toBe(false);
    expect(holds('block.constructor', 'truthy')).toBe(false);
  });
});
