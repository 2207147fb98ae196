import Joi from 'joi';
import { bigintRule, hexRule, zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** Type 10: the sender takes back an expired lock; free, as in ARK 3.0. */
export const htlcRefundHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.HtlcRefund,
  name: 'HtlcRefund',
  feeKey: 'htlcRefund',
  defaultStaticFee: 0n,
  versions: [2],
  hasVendorField: false,
  writeAsset(data, writer) {
    const refund = requiredField(data.asset?.refund, 'asset.refund');
    writer.hex(refund.lockTransactionId, 32, 'asset.refund.lockTransactionId');
  },
  readAsset(reader) {
    const lockTransactionId = reader.hex(32, 'asset.refund.lockTransactionId');
    return { amount: 0n, asset: { refund: { lockTransactionId } } };
  },
  schemaKeys: () => ({
    amount: zeroAmount(),
    fee: bigintRule(0n, 0n).required(),
    asset: Joi.object({
      refund: Joi.object({ lockTransactionId: hexRule(32).required() }).required(),
    }).required(),
  }),
};
