import Joi from 'joi';
import { readAddress, writeAddress } from '../address-bytes.js';
import { DeserializationError } from '../deserialization-error.js';
import { addressRule, bigintRule, U64_MAX, zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionType, TransactionTypeGroup, type MultiPayment } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

const PAYMENT_BYTES = 8 + 21;
/** ARK 3.0's limit when the milestone sets none. */
const DEFAULT_MULTI_PAYMENT_LIMIT = 500;

/** Type 6: pays several recipients at once (at least 2, at most the milestone's limit). */
export const multiPaymentHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.MultiPayment,
  name: 'MultiPayment',
  feeKey: 'multiPayment',
  defaultStaticFee: 10_000_000n,
  versions: [2],
  hasVendorField: true,
  writeAsset(data, writer) {
    const payments = requiredField(data.asset?.payments, 'asset.payments');
    writer.u16(payments.length, 'asset.payments');
    payments.forEach((payment, index) => {
      const field = `asset.payments[${index}].amount`;
      writer.u64(requiredField(payment.amount, field), field);
      writeAddress(writer, payment.recipientId, `asset.payments[${index}].recipientId`);
    });
  },
  readAsset(reader, limits) {
    const countOffset = reader.offset;
    const count = reader.u16('asset.payments count');
    if (count > limits.maxMultiPayments) {
      throw new DeserializationError(
        countOffset,
        'oversized',
        `asset.payments: ${count} payments, at most ${limits.maxMultiPayments}`,
      );
    }
    reader.assertFits(count, PAYMENT_BYTES, 'asset.payments');
    const payments: MultiPayment[] = [];
    for (let index = 0; index < count; index++) {
      const amount = reader.u64(`asset.payments[${index}].amount`);
      payments.push({ amount, recipientId: readAddress(reader, `asset.payments[${index}]`) });
    }
    return { amount: 0n, asset: { payments } };
  },
  schemaKeys: ({ milestone, pubKeyHash }) => ({
    amount: zeroAmount(),
    asset: Joi.object({
      payments: Joi.array()
        .items(
          Joi.object({
            amount: bigintRule(1n, U64_MAX).required(),
            recipientId: addressRule(pubKeyHash).required(),
          }),
        )
        .min(2)
        .max(milestone.multiPaymentLimit ?? DEFAULT_MULTI_PAYMENT_LIMIT)
        .required(),
    }).required(),
  }),
};
