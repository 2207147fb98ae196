import type { DoubleSignPrevented } from './double-sign-guard.js';

declare module '@lni/kernel' {
  interface EventMap {
    /** Another forger signs with one of this forger's keys; this one stopped forging for it. */
    'forger.double-sign-prevented': DoubleSignPrevented;
  }
}

export const DOUBLE_SIGN_PREVENTED = 'forger.double-sign-prevented' as const;
