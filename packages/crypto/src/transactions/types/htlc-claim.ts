import Joi from 'joi';
import { bigintRule, hexRule, zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** Type 9: the recipient claims a lock by showing the 32-byte secret; free, as in ARK 3.0. */
export const htlcClaimHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.HtlcClaim,
  name: 'HtlcClaim',
  feeKey: 'htlcClaim',
  defaultStaticFee: 0n,
  versions: [2],
  hasVendorField: false,
  writeAsset(data, writer) {
    const claim = requiredField(data.asset?.claim, 'asset.claim');
    writer.hex(claim.lockTransactionId, 32, 'asset.claim.lockTransactionId');
    writer.hex(claim.unlockSecret, 32, 'asset.claim.unlockSecret');
  },
  readAsset(reader) {
    const lockTransactionId = reader.hex(32, 'asset.claim.lockTransactionId');
    const unlockSecret = reader.hex(32, 'asset.claim.unlockSecret');
    return { amount: 0n, asset: { claim: { lockTransactionId, unlockSecret } } };
  },
  schemaKeys: () => ({
    amount: zeroAmount(),
    fee: bigintRule(0n, 0n).required(),
    asset: Joi.object({
      claim: Joi.object({
        lockTransactionId: hexRule(32).required(),
        unlockSecret: hexRule(32).required(),
      }).required(),
    }).required(),
  }),
};
