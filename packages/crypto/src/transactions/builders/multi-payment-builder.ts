import { multiPaymentHandler } from '../types/multi-payment.js';
import { TransactionBuilder, toBigInt, type BuilderOptions } from './transaction-builder.js';

export class MultiPaymentBuilder extends TransactionBuilder<MultiPaymentBuilder> {
  constructor(options?: BuilderOptions) {
    super(multiPaymentHandler, options);
    this.data.asset = { payments: [] };
  }

  addPayment(recipientId: string, amount: bigint | number | string): this {
    const payments = this.data.asset?.payments ?? [];
    const index = payments.length;
    const payment = { recipientId, amount: toBigInt(amount, `asset.payments[${index}].amount`) };
    this.data.asset = { payments: [...payments, payment] };
    return this;
  }

  /** Free text of up to the milestone's vendorFieldLength bytes; empty means none. */
  vendorField(text: string): this {
    if (text === '') delete this.data.vendorField;
    else this.data.vendorField = text;
    return this;
  }
}

export const multiPayment = (options?: BuilderOptions): MultiPaymentBuilder =>
  new MultiPaymentBuilder(options);
