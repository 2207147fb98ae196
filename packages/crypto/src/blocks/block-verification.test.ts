import { describe, expect, it } from 'vitest';
import { breakingShowsForgery } from './block-verification.js';

describe('breakingShowsForgery', () => {
  it('blames the sender for what only a forged or altered block breaks', () => {
    for (const rule of [
      'signature',
      'id',
      'payloadHash',
      'reward',
      'transactionSignature',
    ] as const) {
      expect(breakingShowsForgery(rule), rule).toBe(true);
    }
  });

  it('does not blame the sender for what a fork or a race explains', () => {
    expect(breakingShowsForgery('previousBlock')).toBe(false);
    expect(breakingShowsForgery('expiredTransaction')).toBe(false);
  });
});
