import Joi from 'joi';
import { isValidPublicKey } from '../../identities/public-key.js';
import { DeserializationError } from '../deserialization-error.js';
import { addressRule, zeroAmount } from '../schema-rules.js';
import { requiredField } from '../required-field.js';
import { TransactionError } from '../transaction-error.js';
import { TransactionType, TransactionTypeGroup } from '../transaction-data.js';
import type { TransactionTypeHandler } from '../type-handler.js';

const VOTE = /^[+-]0[23][0-9a-f]{64}$/;
// The wire carries any 33 bytes; whether they are a key is the schema's question.
const VOTE_BYTES = /^[+-][0-9a-fA-F]{66}$/;

/** Type 3: `+publicKey` votes for a delegate, `-publicKey` withdraws the vote. */
export const voteHandler: TransactionTypeHandler = {
  typeGroup: TransactionTypeGroup.Core,
  type: TransactionType.Vote,
  name: 'Vote',
  feeKey: 'vote',
  defaultStaticFee: 100_000_000n,
  versions: [1, 2],
  hasVendorField: false,
  writeAsset(data, writer) {
    const votes = requiredField(data.asset?.votes, 'asset.votes');
    writer.u8(votes.length, 'asset.votes');
    votes.forEach((vote, index) => {
      const field = `asset.votes[${index}]`;
      if (typeof vote !== 'string' || !VOTE_BYTES.test(vote)) {
        throw new TransactionError(field, 'expected "+" or "-" and 33 bytes of hex');
      }
      writer.u8(vote.startsWith('+') ? 1 : 0, field);
      writer.hex(vote.slice(1), 33, field);
    });
  },
  readAsset(reader) {
    const count = reader.u8('asset.votes count');
    reader.assertFits(count, 34, 'asset.votes');
    const votes: string[] = [];
    for (let index = 0; index < count; index++) {
      const offset = reader.offset;
      const direction = reader.u8(`asset.votes[${index}]`);
      // Only 0 and 1 serialize back to the same bytes.
      if (direction > 1) {
        throw new DeserializationError(
          offset,
          'malformed',
          `asset.votes[${index}]: prefix ${direction}`,
        );
      }
      votes.push((direction === 1 ? '+' : '-') + reader.hex(33, `asset.votes[${index}]`));
    }
    return { amount: 0n, asset: { votes } };
  },
  legacyAssetBytes: (data) =>
    Buffer.from(requiredField(data.asset?.votes, 'asset.votes').join(''), 'utf8'),
  schemaKeys: ({ pubKeyHash }) => ({
    amount: zeroAmount(),
    recipientId: addressRule(pubKeyHash),
    asset: Joi.object({
      votes: Joi.array()
        .items(
          Joi.string().custom((value: string, helpers) =>
            VOTE.test(value) && isValidPublicKey(value.slice(1))
              ? value
              : helpers.message({
                  custom: '{{#label}} must be "+" or "-" followed by a lowercase public key',
                }),
          ),
        )
        .min(1)
        .max(2)
        .required(),
    }).required(),
  }),
};
