import type { SignerRegistrations } from '@lni/crypto';
import { sameRegistrations } from '../wallets/signer-registrations.js';

/**
 * Transactions whose signatures were verified before they reached a block (the pool verifies
 * on admission), with the sender's signer registrations they were verified under.
 */
export interface VerifiedTransactions {
  /** The registrations the transaction with this id was verified under; undefined if none. */
  verifiedUnder(id: string): SignerRegistrations | undefined;
}

/**
 * verifyBlock's `verifiedBefore`: a transaction is not verified again when `verified` holds its
 * id (the hash of its whole serialization, signatures included: the same id is the same bytes)
 * with the registrations its sender has now, since the same bytes under the same registrations
 * verify the same way. Registrations changed since (a second key or a multisignature registered
 * after the pool took it, a revert), or none recorded (taken back on trust), mean a full check.
 */
export function verifiedBefore(
  verified: VerifiedTransactions,
): (id: string, registrations: SignerRegistrations) => boolean {
  return (id, registrations) => {
    const verifiedUnder = verified.verifiedUnder(id);
    return verifiedUnder !== undefined && sameRegistrations(verifiedUnder, registrations);
  };
}
