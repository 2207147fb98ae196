import bs58 from 'bs58';
import Joi from 'joi';
import { zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionError } from '../transaction-error.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** Type 5: records an IPFS multihash (base58) for the sender. */
export const ipfsHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.Ipfs,
  name: 'Ipfs',
  feeKey: 'ipfs',
  defaultStaticFee: 500_000_000n,
  versions: [2],
  hasVendorField: false,
  writeAsset(data, writer) {
    const multihash = decodeMultihash(requiredField(data.asset?.ipfs, 'asset.ipfs'));
    if (multihash === undefined) {
      throw new TransactionError('asset.ipfs', 'not a base58 multihash (function, length, digest)');
    }
    writer.bytes(multihash);
  },
  readAsset(reader) {
    const hashFunction = reader.u8('asset.ipfs hash function');
    const length = reader.u8('asset.ipfs digest length');
    const digest = reader.bytes(length, 'asset.ipfs digest');
    const multihash = Buffer.concat([Buffer.from([hashFunction, length]), digest]);
    return { amount: 0n, asset: { ipfs: bs58.encode(multihash) } };
  },
  schemaKeys: () => ({
    amount: zeroAmount(),
    asset: Joi.object({
      ipfs: Joi.string()
        .min(2)
        .max(90)
        .custom((value: string, helpers) =>
          decodeMultihash(value) === undefined
            ? helpers.message({
                custom:
                  '{{#label}} must be a base58 multihash (function byte, length byte, digest)',
              })
            : value,
        )
        .required(),
    }).required(),
  }),
};

/** The multihash bytes of base58 text, if its declared digest length matches. */
function decodeMultihash(text: string): Uint8Array | undefined {
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(text);
  } catch {
    // Not base58 at all: the caller reports it with the field name.
    return undefined;
  }
  return bytes.length >= 2 && bytes[1] === bytes.length - 2 ? bytes : undefined;
}
