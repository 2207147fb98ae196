import Joi from 'joi';
import { publicKeyRule, zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionError } from '../transaction-error.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

/** ARK 3.0's delegate name rule. */
export const USERNAME_PATTERN = /^[a-z0-9!@$&_.]{1,20}$/;

/** Type 2: makes the sender a delegate under a unique username. */
export const delegateRegistrationHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.DelegateRegistration,
  name: 'DelegateRegistration',
  feeKey: 'delegateRegistration',
  defaultStaticFee: 2_500_000_000n,
  versions: [1, 2],
  hasVendorField: false,
  writeAsset(data, writer) {
    const bytes = usernameBytes(data.asset?.delegate?.username);
    writer.u8(bytes.length, 'asset.delegate.username');
    writer.bytes(bytes);
  },
  readAsset(reader) {
    const length = reader.u8('asset.delegate.username length');
    const username = reader.utf8(length, 'asset.delegate.username');
    return { amount: 0n, asset: { delegate: { username } } };
  },
  legacyAssetBytes: (data) => usernameBytes(data.asset?.delegate?.username),
  schemaKeys: () => ({
    amount: zeroAmount(),
    asset: Joi.object({
      delegate: Joi.object({
        username: Joi.string().pattern(USERNAME_PATTERN).required().messages({
          'string.pattern.base':
            '{{#label}} must be 1-20 characters of lowercase a-z, 0-9 and !@$&_.',
        }),
        publicKey: publicKeyRule(),
      }).required(),
    }).required(),
  }),
};

function usernameBytes(username: string | undefined): Buffer {
  const bytes = Buffer.from(requiredField(username, 'asset.delegate.username'), 'utf8');
  if (bytes.length > 255) throw new TransactionError('asset.delegate.username', 'over 255 bytes');
  return bytes;
}
