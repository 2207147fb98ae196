import { htlcClaimHandler } from '../types/htlc-claim.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

export class HtlcClaimBuilder extends TransactionBuilder<HtlcClaimBuilder> {
  constructor(options?: BuilderOptions) {
    super(htlcClaimHandler, options);
  }

  /** The lock's id and the 32-byte secret (hex) whose sha256 is the lock's secretHash. */
  htlcClaimAsset(claim: { lockTransactionId: string; unlockSecret: string }): this {
    this.data.asset = { claim: { ...claim } };
    return this;
  }
}

export const htlcClaim = (options?: BuilderOptions): HtlcClaimBuilder =>
  new HtlcClaimBuilder(options);
