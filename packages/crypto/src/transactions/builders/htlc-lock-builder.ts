import { htlcLockHandler } from '../types/htlc-lock.js';
import type { HtlcLockExpirationType } from '../transaction-data.js';
import { TransactionBuilder, toBigInt, type BuilderOptions } from './transaction-builder.js';

export class HtlcLockBuilder extends TransactionBuilder<HtlcLockBuilder> {
  constructor(options?: BuilderOptions) {
    super(htlcLockHandler, options);
  }

  recipientId(address: string): this {
    this.data.recipientId = address;
    return this;
  }

  amount(amount: bigint | number | string): this {
    this.data.amount = toBigInt(amount, 'amount');
    return this;
  }

  /** The sha256 (hex) of the secret and when the lock expires. */
  htlcLockAsset(lock: {
    secretHash: string;
    expiration: { type: HtlcLockExpirationType; value: number };
  }): this {
    this.data.asset = { lock: { secretHash: lock.secretHash, expiration: { ...lock.expiration } } };
    return this;
  }

  /** Free text of up to the milestone's vendorFieldLength bytes; empty means none. */
  vendorField(text: string): this {
    if (text === '') delete this.data.vendorField;
    else this.data.vendorField = text;
    return this;
  }
}

export const htlcLock = (options?: BuilderOptions): HtlcLockBuilder => new HtlcLockBuilder(options);
