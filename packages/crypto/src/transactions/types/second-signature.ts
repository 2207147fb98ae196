import Joi from 'joi';
import { publicKeyRule, zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** Type 1: registers a second public key whose signature every later transaction needs. */
export const secondSignatureHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.SecondSignature,
  name: 'SecondSignature',
  feeKey: 'secondSignature',
  defaultStaticFee: 500_000_000n,
  versions: [1, 2],
  hasVendorField: false,
  writeAsset(data, writer) {
    writer.hex(secondPublicKey(data.asset), 33, 'asset.signature.publicKey');
  },
  readAsset(reader) {
    return { amount: 0n, asset: { signature: { publicKey: reader.hex(33, 'asset.signature') } } };
  },
  legacyAssetBytes: (data) => Buffer.from(secondPublicKey(data.asset), 'hex'),
  schemaKeys: () => ({
    amount: zeroAmount(),
    secondSignature: Joi.forbidden(),
    asset: Joi.object({
      signature: Joi.object({ publicKey: publicKeyRule().required() }).required(),
    }).required(),
  }),
};

function secondPublicKey(asset: { signature?: { publicKey: string } } | undefined): string {
  return requiredField(asset?.signature?.publicKey, 'asset.signature.publicKey');
}
