import { signEcdsa, verifyEcdsa } from '../signatures/ecdsa.js';
import type { KeyPair } from '../identities/keys.js';
import type { Milestones } from '../networks/milestones.js';
import type { VerificationItem } from '../verification/verification-item.js';
import type { SignedBlockHeader, UnsignedBlockHeader } from './block-data.js';
import { blockSigningHash } from './block-hash.js';

/** Signs a header with the generator's key: deterministic low-S DER ECDSA, as hex. */
export function signBlockHeader(
  header: UnsignedBlockHeader,
  privateKey: KeyPair['privateKey'],
  milestones: Milestones,
): string {
  return signEcdsa(blockSigningHash(header, milestones), privateKey).toString('hex');
}

/** The block signature as an item for verifyEach/verifyAll or the VerificationPool. */
export function blockSignatureItem(
  header: SignedBlockHeader,
  milestones: Milestones,
): VerificationItem {
  return {
    kind: 'ecdsa',
    hash: blockSigningHash(header, milestones),
    signature: Buffer.from(header.blockSignature, 'hex'),
    publicKey: Buffer.from(header.generatorPublicKey, 'hex'),
  };
}

/** Whether the block signature is the generator's over this header. Never throws. */
export function verifyBlockSignature(header: SignedBlockHeader, milestones: Milestones): boolean {
  try {
    const item = blockSignatureItem(header, milestones);
    return verifyEcdsa(item.hash, item.signature, item.publicKey);
  } catch {
    // A header that cannot be serialized has no valid signature.
    return false;
  }
}
