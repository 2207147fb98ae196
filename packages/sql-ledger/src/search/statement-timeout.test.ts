import { describe, expect, it } from 'vitest';
import { statementTimeoutOf } from './statement-timeout.js';

describe('statementTimeoutOf', () => {
  it('rounds the time left down to whole seconds from a second up', () => {
    expect(statementTimeoutOf(10_000, 5_001)).toBe(4_000);
    expect(statementTimeoutOf(10_000, 5_000)).toBe(5_000);
    expect(statementTimeoutOf(10_000, 8_999)).toBe(1_000);
  });

  it('rounds to a step below a second, and never past the deadline', () => {
    expect(statementTimeoutOf(1_000, 1)).toBe(500);
    expect(statementTimeoutOf(1_000, 800)).toBe(100);
    expect(statementTimeoutOf(1_000, 990)).toBe(1);
    expect(statementTimeoutOf(1_000, 1_000)).toBe(0);
    expect(statementTimeoutOf(1_000, 1_200)).toBe(0);
  });
});
