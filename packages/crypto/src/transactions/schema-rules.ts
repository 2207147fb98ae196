import Joi from 'joi';
import { isValidAddress } from '../identities/address.js';
import { isValidPublicKey } from '../identities/public-key.js';

export const U64_MAX = 2n ** 64n - 1n;
/** ARK 3.0 writes nonce and fee as signed 64-bit integers, so larger values cannot travel. */
export const I64_MAX = 2n ** 63n - 1n;
export const U32_MAX = 2 ** 32 - 1;

/**
 * A bigint in [min, max]; the message says which bound failed. Its description and `bigint`
 * format say so in the JSON schemas made from it (JSON writes such a value as a decimal string).
 */
export function bigintRule(min: bigint, max: bigint): Joi.AnySchema {
  const schema = Joi.any()
    .meta({ format: 'bigint' })
    .description(`an integer from ${min} to ${max}, as a decimal string`);
  return schema.custom((value: unknown, helpers) => {
    if (typeof value !== 'bigint')
      return helpers.message({ custom: '{{#label}} must be a bigint' });
    if (value < min || value > max) {
      return helpers.message({
        custom: `{{#label}} must be between ${min} and ${max}, got ${value}`,
      });
    }
    return value;
  });
}

export function addressRule(pubKeyHash: number): Joi.StringSchema {
  return Joi.string().custom((value: string, helpers) =>
    isValidAddress(value, pubKeyHash)
      ? value
      : helpers.message({
          custom: `{{#label}} is not a valid address of the network (pubKeyHash ${pubKeyHash})`,
        }),
  );
}

export function publicKeyRule(): Joi.StringSchema {
  return Joi.string().custom((value: string, helpers) =>
    isValidPublicKey(value)
      ? value
      : helpers.message({ custom: '{{#label}} is not a compressed secp256k1 public key' }),
  );
}

/** Lowercase-or-uppercase hex of exactly `bytes` bytes. */
export function hexRule(bytes: number): Joi.StringSchema {
  return Joi.string()
    .length(bytes * 2)
    .pattern(/^[0-9a-fA-F]+$/, { name: 'hex' });
}

export function u32Rule(): Joi.NumberSchema {
  return Joi.number().integer().min(0).max(U32_MAX);
}

/** The amount of types that move no value: exactly zero. */
export const zeroAmount = (): Joi.AnySchema => bigintRule(0n, 0n);
