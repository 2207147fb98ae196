import Joi from 'joi';
import { readAddress, writeAddress } from '../address-bytes.js';
import { addressRule, bigintRule, U64_MAX, u32Rule } from '../schema-rules.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** Type 0: moves `amount` to `recipientId`; may expire at a height. */
export const transferHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.Transfer,
  name: 'Transfer',
  feeKey: 'transfer',
  defaultStaticFee: 10_000_000n,
  versions: [1, 2],
  hasVendorField: true,
  writeAsset(data, writer) {
    writer.u64(data.amount, 'amount');
    writer.u32(data.expiration ?? 0, 'expiration');
    writeAddress(writer, data.recipientId, 'recipientId');
  },
  readAsset(reader) {
    const amount = reader.u64('amount');
    const expiration = reader.u32('expiration');
    return { amount, expiration, recipientId: readAddress(reader, 'recipientId') };
  },
  legacyAssetBytes: () => Buffer.alloc(0),
  schemaKeys: ({ pubKeyHash }) => ({
    amount: bigintRule(1n, U64_MAX).required(),
    recipientId: addressRule(pubKeyHash).required(),
    expiration: u32Rule(),
    asset: Joi.object().max(0),
  }),
};
