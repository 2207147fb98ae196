import { describe, expect, it } from 'vitest';
import type { Wallet } from './wallet.js';
import { sameRegistrations, signerRegistrations } from './signer-registrations.js';

const KEY_A = `02${'a'.repeat(64)}`;
const KEY_B = `03${'b'.repeat(64)}`;
const plain: Wallet = { address: 'AWallet', balance: 5n, nonce: 1n, attributes: {} };

describe('signerRegistrations', () => {
  it('is empty for an unknown wallet and for one that registered nothing', () => {
    expect(signerRegistrations(undefined)).toEqual({});
    expect(signerRegistrations({ ...plain, attributes: { vote: KEY_A } })).toEqual({});
  });

  it("carries the wallet's second public key and multisignature, nothing else", () => {
    const multiSignature = { min: 2, publicKeys: [KEY_A, KEY_B] };
    const wallet: Wallet = {
      ...plain,
      attributes: { secondPublicKey: KEY_A, multiSignature, vote: KEY_B },
    };
    expect(signerRegistrations(wallet)).toEqual({ secondPublicKey: KEY_A, multiSignature });
  });
});

describe('sameRegistrations', () => {
  const multi = { min: 1, publicKeys: [KEY_A, KEY_B] };

  it('holds for equal values, whether or not they are the same objects', () => {
    expect(sameRegistrations({}, {})).toBe(true);
    expect(
      sameRegistrations(
        { secondPublicKey: KEY_A, multiSignature: multi },
        { secondPublicKey: KEY_A, multiSignature: { min: 1, publicKeys: [KEY_A, KEY_B] } },
      ),
    ).toBe(true);
  });

  it('fails for any difference in who must sign', () => {
    expect(sameRegistrations({}, { secondPublicKey: KEY_A })).toBe(false);
    expect(sameRegistrations({ secondPublicKey: KEY_A }, { secondPublicKey: KEY_B })).toBe(false);
    expect(sameRegistrations({}, { multiSignature: multi })).toBe(false);
    expect(
      sameRegistrations({ multiSignature: multi }, { multiSignature: { ...multi, min: 2 } }),
    ).toBe(false);
    expect(
      sameRegistrations(
        { multiSignature: multi },
        { multiSignature: { min: 1, publicKeys: [KEY_B, KEY_A] } },
      ),
    ).toBe(false);
  });
});
