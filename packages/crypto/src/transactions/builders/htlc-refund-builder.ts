import { htlcRefundHandler } from '../types/htlc-refund.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

export class HtlcRefundBuilder extends TransactionBuilder<HtlcRefundBuilder> {
  constructor(options?: BuilderOptions) {
    super(htlcRefundHandler, options);
  }

  htlcRefundAsset(refund: { lockTransactionId: string }): this {
    this.data.asset = { refund: { ...refund } };
    return this;
  }
}

export const htlcRefund = (options?: BuilderOptions): HtlcRefundBuilder =>
  new HtlcRefundBuilder(options);
