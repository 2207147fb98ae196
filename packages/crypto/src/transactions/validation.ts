import Joi from 'joi';
import type { Milestone } from '../networks/milestone.js';
import type { NetworkParams } from '../networks/network-params.js';
import { transactionTypeHandler } from './registry.js';
import { bigintRule, hexRule, I64_MAX, publicKeyRule, u32Rule } from './schema-rules.js';
import type { TransactionData } from './transaction-data.js';
import type { TransactionTypeHandler, ValidationContext } from './type-handler.js';

/** One rule a transaction breaks: the field's dotted path and why. */
export interface TransactionValidationIssue {
  readonly path: string;
  readonly message: string;
}

export type TransactionValidationResult =
  | { readonly ok: true; readonly value: TransactionData }
  | { readonly ok: false; readonly errors: readonly TransactionValidationIssue[] };

export interface ValidationOptions {
  /**
   * A transaction of the genesis block: fee 0 and zero-amount transfers are allowed there, as
   * ARK's `bypassGenesis` does.
   */
  readonly genesis?: boolean;
}

const DER_HEX = /^30[0-9a-f]{12,140}$/;
const PARTICIPANT_SIGNATURE = /^[0-9a-f]{130}$/;
const schemaCache = new WeakMap<Milestone, Map<string, Joi.ObjectSchema>>();

/**
 * Checks every field of a transaction against ARK 3.0's rules for its type at this milestone
 * (vendor field length, multipayment limit, AIP-11 version) on this network. All broken rules
 * are reported, each with the field's path.
 */
export function validateTransaction(
  data: TransactionData,
  milestone: Milestone,
  network: Pick<NetworkParams, 'pubKeyHash'>,
  options: ValidationOptions = {},
): TransactionValidationResult {
  if (data === null || typeof data !== 'object') {
    return { ok: false, errors: [{ path: '', message: 'transaction must be an object' }] };
  }
  const handler = transactionTypeHandler(data.typeGroup, data.type);
  if (handler === undefined) {
    const message = `unknown transaction type ${String(data.type)} in group ${String(data.typeGroup)}`;
    return { ok: false, errors: [{ path: 'type', message }] };
  }
  if (!handler.versions.includes(data.version)) {
    const message = `${handler.feeKey} exists only as version ${handler.versions.join(' or ')}`;
    return { ok: false, errors: [{ path: 'version', message }] };
  }
  const schema = cachedSchema(handler, data.version === 1 ? 1 : 2, options.genesis === true, {
    milestone,
    pubKeyHash: network.pubKeyHash,
  });
  const { error } = schema.validate(data, { abortEarly: false, convert: false });
  if (error === undefined) return { ok: true, value: data };
  return {
    ok: false,
    errors: error.details.map((detail) => ({
      path: formatPath(detail.path),
      message: detail.message,
    })),
  };
}

/**
 * The joi schema a transaction of a type must meet at this milestone, in the version the
 * milestone asks for (2 once aip11 is on); undefined for a type this node does not know or
 * that has no such version. What GET /api/transactions/schemas publishes.
 */
export function transactionSchema(
  typeGroup: number,
  type: number,
  milestone: Milestone,
  network: Pick<NetworkParams, 'pubKeyHash'>,
): Joi.ObjectSchema | undefined {
  const handler = transactionTypeHandler(typeGroup, type);
  const version = milestone.aip11 === true ? 2 : 1;
  if (handler === undefined || !handler.versions.includes(version)) return undefined;
  return cachedSchema(handler, version, false, { milestone, pubKeyHash: network.pubKeyHash });
}

function cachedSchema(
  handler: TransactionTypeHandler,
  version: 1 | 2,
  genesis: boolean,
  context: ValidationContext,
): Joi.ObjectSchema {
  let byKey = schemaCache.get(context.milestone);
  if (byKey === undefined) {
    byKey = new Map();
    schemaCache.set(context.milestone, byKey);
  }
  const key = `${handler.type}:${version}:${genesis}:${context.pubKeyHash}`;
  let schema = byKey.get(key);
  if (schema === undefined) {
    schema = buildSchema(handler, version, genesis, context);
    byKey.set(key, schema);
  }
  return schema;
}

function buildSchema(
  handler: TransactionTypeHandler,
  version: 1 | 2,
  genesis: boolean,
  context: ValidationContext,
): Joi.ObjectSchema {
  const { milestone, pubKeyHash } = context;
  const aip11 = milestone.aip11 === true;
  const versionRule = Joi.number()
    .valid(aip11 ? 2 : 1)
    .required()
    .messages({
      'any.only': `{{#label}} must be ${aip11 ? 2 : 1} at this height (aip11 ${aip11})`,
    });
  const vendorFieldLength = milestone.vendorFieldLength;
  const common: Joi.PartialSchemaMap = {
    version: versionRule,
    network: Joi.number().valid(pubKeyHash).required(),
    typeGroup: Joi.number().valid(1).required(),
    type: Joi.number().valid(handler.type).required(),
    nonce: version === 2 ? bigintRule(0n, I64_MAX).required() : bigintRule(0n, 0n),
    timestamp: version === 1 ? u32Rule().required() : Joi.forbidden(),
    senderPublicKey: publicKeyRule().required(),
    // Genesis transactions carry no fee; ARK 3.0 writes fees as signed 64-bit.
    fee: bigintRule(genesis ? 0n : 1n, I64_MAX).required(),
    amount: bigintRule(0n, 0n).required(),
    expiration: Joi.forbidden(),
    recipientId: Joi.forbidden(),
    vendorField: handler.hasVendorField
      ? Joi.string().custom((value: string, helpers) =>
          Buffer.byteLength(value, 'utf8') <= vendorFieldLength
            ? value
            : helpers.message({
                custom: `{{#label}} must be at most ${vendorFieldLength} bytes of UTF-8`,
              }),
        )
      : Joi.forbidden(),
    asset: Joi.forbidden(),
    signature: version === 2 ? hexRule(64) : Joi.string().pattern(DER_HEX, { name: 'DER hex' }),
    secondSignature:
      version === 2 ? hexRule(64) : Joi.string().pattern(DER_HEX, { name: 'DER hex' }),
    signatures:
      version === 2
        ? Joi.array()
            .items(Joi.string().pattern(PARTICIPANT_SIGNATURE, { name: 'index and signature' }))
            .min(1)
            .max(16)
            .unique()
        : Joi.forbidden(),
    id: hexRule(32),
  };
  const typeKeys = handler.schemaKeys(context);
  if (genesis && handler.type === 0) {
    // ARK's genesis blocks hold zero-amount transfers.
    typeKeys.amount = bigintRule(0n, 2n ** 64n - 1n).required();
  }
  return Joi.object({ ...common, ...typeKeys }).messages({
    'any.unknown': '{{#label}} is not allowed for this transaction type',
  });
}

function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join('');
}
