import { transferHandler } from '../types/transfer.js';
import { TransactionBuilder, toBigInt, type BuilderOptions } from './transaction-builder.js';

export class TransferBuilder extends TransactionBuilder<TransferBuilder> {
  constructor(options?: BuilderOptions) {
    super(transferHandler, options);
    this.data.expiration = 0;
  }

  recipientId(address: string): this {
    this.data.recipientId = address;
    return this;
  }

  amount(amount: bigint | number | string): this {
    this.data.amount = toBigInt(amount, 'amount');
    return this;
  }

  /** The last block height at which it may be forged; 0 for none. */
  expiration(height: number): this {
    this.data.expiration = height;
    return this;
  }

  /** Free text of up to the milestone's vendorFieldLength bytes; empty means none. */
  vendorField(text: string): this {
    if (text === '') delete this.data.vendorField;
    else this.data.vendorField = text;
    return this;
  }

  protected override complete(): void {
    // ARK's v1 transfers carry no expiration.
    if (this.data.version === 1) delete this.data.expiration;
  }
}

/** A transfer builder: `transfer({ network }).recipientId(a).amount(n).nonce(1n).sign(p)`. */
export const transfer = (options?: BuilderOptions): TransferBuilder => new TransferBuilder(options);
