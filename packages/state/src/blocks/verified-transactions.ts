import type { SignerRegistrations } from '@lni/crypto';

/**
 * Transactions whose signatures were verified before they reached a block (the pool verifies
 * on admission), with the sender's signer registrations they were verified under. The block
 * processor does not verify such a transaction again while its sender's registrations are
 * still those (see BlockProcessor's #verify).
 */
export interface VerifiedTransactions {
  /** The registrations the transaction with this id was verified under; undefined if none. */
  verifiedUnder(id: string): SignerRegistrations | undefined;
}
