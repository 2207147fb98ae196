import Joi from 'joi';
import { readAddress, writeAddress } from '../address-bytes.js';
import { addressRule, bigintRule, hexRule, U64_MAX, u32Rule } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import {
  TransactionType,
  TransactionTypeGroup,
  HtlcLockExpirationType,
} from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** Type 8: locks `amount` for `recipientId` until the secret is shown or the lock expires. */
export const htlcLockHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.HtlcLock,
  name: 'HtlcLock',
  feeKey: 'htlcLock',
  defaultStaticFee: 10_000_000n,
  versions: [2],
  hasVendorField: true,
  writeAsset(data, writer) {
    const lock = requiredField(data.asset?.lock, 'asset.lock');
    writer.u64(data.amount, 'amount');
    writer.hex(lock.secretHash, 32, 'asset.lock.secretHash');
    writer.u8(
      requiredField(lock.expiration?.type, 'asset.lock.expiration.type'),
      'asset.lock.expiration.type',
    );
    writer.u32(
      requiredField(lock.expiration?.value, 'asset.lock.expiration.value'),
      'asset.lock.expiration.value',
    );
    writeAddress(writer, data.recipientId, 'recipientId');
  },
  readAsset(reader) {
    const amount = reader.u64('amount');
    const secretHash = reader.hex(32, 'asset.lock.secretHash');
    const type = reader.u8('asset.lock.expiration.type');
    const value = reader.u32('asset.lock.expiration.value');
    const recipientId = readAddress(reader, 'recipientId');
    return { amount, recipientId, asset: { lock: { secretHash, expiration: { type, value } } } };
  },
  schemaKeys: ({ pubKeyHash }) => ({
    amount: bigintRule(1n, U64_MAX).required(),
    recipientId: addressRule(pubKeyHash).required(),
    asset: Joi.object({
      lock: Joi.object({
        secretHash: hexRule(32).required(),
        expiration: Joi.object({
          type: Joi.number()
            .valid(HtlcLockExpirationType.EpochTimestamp, HtlcLockExpirationType.BlockHeight)
            .required(),
          value: u32Rule().required(),
        }).required(),
      }).required(),
    }).required(),
  }),
};
