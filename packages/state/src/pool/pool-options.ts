import Joi from 'joi';

/** Limits of the transaction pool; every one gives its own rejection reason when hit. */
export interface PoolOptions {
  /** Transactions held in total. */
  readonly maxTransactions: number;
  /** Serialized bytes held in total. */
  readonly maxBytes: number;
  /** Transactions held per sender. */
  readonly maxPerSender: number;
  /** Transactions taken from one request; the rest are refused. */
  readonly maxPerRequest: number;
  /** Seconds a transaction may wait before it is dropped. */
  readonly maxAgeSeconds: number;
  /** Require the milestone's static fee (ARK 3.0 without dynamic fees). */
  readonly staticFees: boolean;
}

export const poolOptionsSchema = Joi.object<PoolOptions>({
  maxTransactions: Joi.number().integer().min(1).default(15_000),
  maxBytes: Joi.number()
    .integer()
    .min(1024)
    .default(64 * 1024 * 1024),
  maxPerSender: Joi.number().integer().min(1).default(150),
  maxPerRequest: Joi.number().integer().min(1).default(40),
  maxAgeSeconds: Joi.number()
    .integer()
    .min(1)
    .default(6 * 3600),
  staticFees: Joi.boolean().default(true),
});

/** The options with defaults filled in; throws a joi error naming every bad field. */
export function poolOptions(input: Partial<PoolOptions> = {}): PoolOptions {
  const { error, value } = poolOptionsSchema.validate(input, { abortEarly: false });
  if (error) throw error;
  return Object.freeze(value);
}
