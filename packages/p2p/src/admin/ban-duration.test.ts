import { AdminError } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import { parseBanDuration } from './ban-duration.js';

describe('the duration of a ban an operator asks for', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(parseBanDuration('90s')).toBe(90_000);
    expect(parseBanDuration('30m')).toBe(1_800_000);
    expect(parseBanDuration('1h')).toBe(3_600_000);
    expect(parseBanDuration('7d')).toBe(604_800_000);
  });

  it.each(['', '1', 'h', '1y', '-1h', '0m', '1.5h', '3651d'])("refuses '%s' naming it", (text) => {
    expect(() => parseBanDuration(text)).toThrow(AdminError);
    expect(() => parseBanDuration(text)).toThrow(`bad ban duration '${text}'`);
  });
});
