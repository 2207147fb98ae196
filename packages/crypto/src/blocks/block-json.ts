import type { TransactionData } from '../transactions/transaction-data.js';
import {
  transactionFromJson,
  transactionToJson,
  type TransactionJson,
} from '../transactions/json.js';
import type { BlockData, BlockHeader } from './block-data.js';
import { InvalidBlockError } from './block-error.js';
import { blockHeaderOf } from './block-header.js';

type Amount = 'totalAmount' | 'totalFee' | 'reward';

/** A header as ARK 3.0's JSON carries it (genesisBlock.json, the API, forger replies). */
export type BlockHeaderJson = Omit<BlockHeader, Amount> & {
  /** Arktoshi as a decimal string. */
  readonly [K in Amount]: string;
};

export interface BlockJson extends BlockHeaderJson {
  readonly transactions?: readonly TransactionJson[];
}

/** The header's JSON; a block's other fields (its transactions) are left out. */
export function blockHeaderToJson(header: BlockHeader): BlockHeaderJson {
  return {
    ...blockHeaderOf(header),
    totalAmount: header.totalAmount.toString(),
    totalFee: header.totalFee.toString(),
    reward: header.reward.toString(),
  };
}

/** A header from ARK's JSON; a field of the wrong kind throws InvalidBlockError naming it. */
export function blockHeaderFromJson(json: unknown): BlockHeader {
  const source = objectOf(json);
  return {
    id: text(source.id, 'id'),
    version: integer(source.version, 'version'),
    timestamp: integer(source.timestamp, 'timestamp'),
    height: integer(source.height, 'height'),
    previousBlock:
      source.previousBlock === null ? null : text(source.previousBlock, 'previousBlock'),
    numberOfTransactions: integer(source.numberOfTransactions, 'numberOfTransactions'),
    totalAmount: amount(source.totalAmount, 'totalAmount'),
    totalFee: amount(source.totalFee, 'totalFee'),
    reward: amount(source.reward, 'reward'),
    payloadLength: integer(source.payloadLength, 'payloadLength'),
    payloadHash: text(source.payloadHash, 'payloadHash'),
    generatorPublicKey: text(source.generatorPublicKey, 'generatorPublicKey'),
    blockSignature: text(source.blockSignature, 'blockSignature'),
  };
}

export function blockToJson(block: BlockData<TransactionData>): BlockJson {
  const { transactions } = block;
  return {
    ...blockHeaderToJson(block),
    ...(transactions !== undefined && { transactions: transactions.map(transactionToJson) }),
  };
}

/** Block data from ARK's JSON; `network` fills transactions that omit their network byte. */
export function blockFromJson(
  json: unknown,
  options: { readonly network?: number } = {},
): BlockData<TransactionData> {
  const transactions = objectOf(json).transactions;
  if (transactions !== undefined && !Array.isArray(transactions)) {
    throw new InvalidBlockError('transactions', 'expected a list');
  }
  return {
    ...blockHeaderFromJson(json),
    ...(transactions !== undefined && {
      transactions: transactions.map((tx) => transactionFromJson(tx, options)),
    }),
  };
}

function objectOf(json: unknown): Readonly<Record<string, unknown>> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new InvalidBlockError('block', 'expected a JSON object');
  }
  return json as Readonly<Record<string, unknown>>;
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new InvalidBlockError(field, 'expected a string');
  return value;
}

function integer(value: unknown, field: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new InvalidBlockError(field, 'expected a non-negative integer');
  }
  return value as number;
}

function amount(value: unknown, field: string): bigint {
  if (typeof value === 'string' && /^(0|[1-9]\d*)$/.test(value)) return BigInt(value);
  if (Number.isSafeInteger(value) && (value as number) >= 0) return BigInt(value as number);
  throw new InvalidBlockError(field, 'expected a non-negative integer as a decimal string');
}
