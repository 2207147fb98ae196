import type { SignerRegistrations } from '@lni/crypto';
import type { Wallet } from './wallet.js';

/**
 * What a wallet has registered that changes who must sign its transactions (a second public
 * key, a multisignature), as @lni/crypto's signature checks take it. A wallet never seen
 * registers nothing.
 */
export function signerRegistrations(wallet: Wallet | undefined): SignerRegistrations {
  const attributes = wallet?.attributes;
  return {
    ...(attributes?.secondPublicKey !== undefined && {
      secondPublicKey: attributes.secondPublicKey,
    }),
    ...(attributes?.multiSignature !== undefined && {
      multiSignature: attributes.multiSignature,
    }),
  };
}

/** Whether signatures judged under `a` are judged the same under `b`. */
export function sameRegistrations(a: SignerRegistrations, b: SignerRegistrations): boolean {
  if (a.secondPublicKey !== b.secondPublicKey) return false;
  const [x, y] = [a.multiSignature, b.multiSignature];
  if (x === undefined || y === undefined) return x === y;
  return (
    x.min === y.min &&
    x.publicKeys.length === y.publicKeys.length &&
    x.publicKeys.every((key, index) => key === y.publicKeys[index])
  );
}
