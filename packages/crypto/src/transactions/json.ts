import { TransactionError } from './transaction-error.js';
import type { MultiPayment, TransactionAsset, TransactionData } from './transaction-data.js';

/** A transaction as ARK 3.0's JSON carries it: amounts, fee and nonce as decimal strings. */
export interface TransactionJson {
  readonly version?: number;
  readonly network?: number;
  readonly typeGroup?: number;
  readonly type: number;
  readonly nonce?: string;
  readonly senderPublicKey: string;
  readonly fee: string;
  readonly amount: string;
  readonly timestamp?: number;
  readonly expiration?: number;
  readonly recipientId?: string;
  readonly vendorField?: string;
  readonly asset?: Record<string, unknown>;
  readonly signature?: string;
  readonly secondSignature?: string;
  readonly signatures?: readonly string[];
  readonly id?: string;
}

export interface FromJsonOptions {
  /** The network byte for JSON without one (ARK's genesis files omit it). */
  readonly network?: number;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** The JSON form: bigint amounts become decimal strings; v1 omits the nonce, v2 the timestamp. */
export function transactionToJson(data: TransactionData): TransactionJson {
  const { nonce, fee, amount, asset, timestamp, ...rest } = data;
  const payments = asset?.payments?.map((payment) => ({
    amount: payment.amount.toString(),
    recipientId: payment.recipientId,
  }));
  return {
    ...rest,
    ...(data.version === 2 ? { nonce: nonce.toString() } : { timestamp: timestamp ?? 0 }),
    fee: fee.toString(),
    amount: amount.toString(),
    ...(asset !== undefined && {
      asset: (payments === undefined ? asset : { ...asset, payments }) as Record<string, unknown>,
    }),
  };
}

/**
 * Transaction data from JSON as wallets and ARK's files write it: amounts as strings (or safe
 * integers), `signSignature` as the old name of `secondSignature`, null for absent fields.
 */
export function transactionFromJson(json: unknown, options: FromJsonOptions = {}): TransactionData {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new TransactionError('transaction', 'expected a JSON object');
  }
  const source = json as Record<string, unknown>;
  const version = source.version ?? 1;
  if (version !== 1 && version !== 2) {
    throw new TransactionError('version', `expected 1 or 2, got ${String(version)}`);
  }
  const network = source.network ?? options.network;
  const data: Record<string, unknown> = {
    version,
    network: integer(network, 'network', 255),
    typeGroup: integer(source.typeGroup ?? 1, 'typeGroup', 2 ** 32 - 1),
    type: integer(source.type, 'type', 0xffff),
    nonce: version === 2 ? amount(source.nonce, 'nonce') : 0n,
    senderPublicKey: text(source.senderPublicKey, 'senderPublicKey'),
    fee: amount(source.fee, 'fee'),
    amount: amount(source.amount ?? '0', 'amount'),
  };
  if (version === 1) data.timestamp = integer(source.timestamp ?? 0, 'timestamp', 2 ** 32 - 1);
  for (const field of ['recipientId', 'vendorField', 'signature', 'id'] as const) {
    const value = present(source[field]);
    if (value !== undefined) data[field] = text(value, field);
  }
  const secondSignature = present(source.secondSignature) ?? present(source.signSignature);
  if (secondSignature !== undefined)
    data.secondSignature = text(secondSignature, 'secondSignature');
  const expiration = present(source.expiration);
  if (expiration !== undefined) data.expiration = integer(expiration, 'expiration', 2 ** 32 - 1);
  const signatures = present(source.signatures);
  if (signatures !== undefined) {
    if (!Array.isArray(signatures)) throw new TransactionError('signatures', 'expected a list');
    data.signatures = signatures.map((value, index) => text(value, `signatures[${index}]`));
  }
  const asset = present(source.asset);
  if (asset !== undefined) data.asset = assetFromJson(asset);
  return data as unknown as TransactionData;
}

function assetFromJson(asset: unknown): TransactionAsset {
  if (asset === null || typeof asset !== 'object' || Array.isArray(asset)) {
    throw new TransactionError('asset', 'expected an object');
  }
  const { payments, ...rest } = asset as Record<string, unknown>;
  if (payments === undefined) return rest as TransactionAsset;
  if (!Array.isArray(payments)) throw new TransactionError('asset.payments', 'expected a list');
  return {
    ...rest,
    payments: payments.map((payment: unknown, index): MultiPayment => {
      const field = `asset.payments[${index}]`;
      if (payment === null || typeof payment !== 'object') {
        throw new TransactionError(field, 'expected an object');
      }
      const { amount: value, recipientId } = payment as Record<string, unknown>;
      return {
        amount: amount(value, `${field}.amount`),
        recipientId: text(recipientId, `${field}.recipientId`),
      };
    }),
  } as TransactionAsset;
}

function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

function amount(value: unknown, field: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && DECIMAL.test(value)) return BigInt(value);
  throw new TransactionError(
    field,
    `expected a non-negative decimal string, got ${describe(value)}`,
  );
}

function integer(value: unknown, field: string, max: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max) {
    return value;
  }
  throw new TransactionError(field, `expected an integer from 0 to ${max}, got ${describe(value)}`);
}

function text(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  throw new TransactionError(field, `expected a string, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  return value === null ? 'null' : typeof value;
}
