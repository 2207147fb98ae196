import Joi from 'joi';
import { DeserializationError } from '../deserialization-error.js';
import { publicKeyRule, zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

const MAX_PARTICIPANTS = 16;
const PARTICIPANT_SIGNATURE = /^[0-9a-f]{130}$/;

/** Type 4: turns the sender into a min-of-n multisignature wallet; every participant signs. */
export const multiSignatureHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.MultiSignature,
  name: 'MultiSignature',
  feeKey: 'multiSignature',
  defaultStaticFee: 500_000_000n,
  versions: [2],
  hasVendorField: false,
  writeAsset(data, writer) {
    const { min, publicKeys } = requiredField(data.asset?.multiSignature, 'asset.multiSignature');
    writer.u8(min, 'asset.multiSignature.min');
    writer.u8(publicKeys.length, 'asset.multiSignature.publicKeys');
    publicKeys.forEach((key, index) =>
      writer.hex(key, 33, `asset.multiSignature.publicKeys[${index}]`),
    );
  },
  readAsset(reader, limits) {
    const min = reader.u8('asset.multiSignature.min');
    const countOffset = reader.offset;
    const count = reader.u8('asset.multiSignature.publicKeys count');
    if (count > limits.maxMultiSignatureKeys) {
      throw new DeserializationError(
        countOffset,
        'oversized',
        `asset.multiSignature.publicKeys: ${count} keys, at most ${limits.maxMultiSignatureKeys}`,
      );
    }
    reader.assertFits(count, 33, 'asset.multiSignature.publicKeys');
    const publicKeys: string[] = [];
    for (let index = 0; index < count; index++) {
      publicKeys.push(reader.hex(33, `asset.multiSignature.publicKeys[${index}]`));
    }
    return { amount: 0n, asset: { multiSignature: { min, publicKeys } } };
  },
  schemaKeys: () => ({
    amount: zeroAmount(),
    asset: Joi.object({
      multiSignature: Joi.object({
        min: Joi.number().integer().min(1).max(Joi.ref('publicKeys.length')).required(),
        publicKeys: Joi.array()
          .items(publicKeyRule())
          .min(1)
          .max(MAX_PARTICIPANTS)
          .unique()
          .required(),
      }).required(),
    }).required(),
    signatures: Joi.array()
      .items(Joi.string().pattern(PARTICIPANT_SIGNATURE, { name: 'index byte and signature' }))
      .min(Joi.ref('asset.multiSignature.min'))
      .max(Joi.ref('asset.multiSignature.publicKeys.length'))
      .unique()
      .required(),
  }),
  feeMultiplier: (data) => BigInt((data.asset?.multiSignature?.publicKeys.length ?? 0) + 1),
};
