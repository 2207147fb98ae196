import type { TransactionData } from '../transactions/transaction-data.js';
import {
  transactionFromJson,
  transactionToJson,
  type TransactionJson,
} from '../transactions/json.js';
import type { BlockData } from './block-data.js';
import { InvalidBlockError } from './block-error.js';

/** A block as ARK 3.0's JSON (genesisBlock.json, the API) carries it: amounts as strings. */
export interface BlockJson {
  readonly id: string;
  readonly version: number;
  readonly timestamp: number;
  readonly height: number;
  readonly previousBlock: string | null;
  readonly numberOfTransactions: number;
  readonly totalAmount: string;
  readonly totalFee: string;
  readonly reward: string;
  readonly payloadLength: number;
  readonly payloadHash: string;
  readonly generatorPublicKey: string;
  readonly blockSignature: string;
  readonly transactions?: readonly TransactionJson[];
}

export function blockToJson(block: BlockData<TransactionData>): BlockJson {
  const { transactions, totalAmount, totalFee, reward, ...rest } = block;
  return {
    ...rest,
    totalAmount: totalAmount.toString(),
    totalFee: totalFee.toString(),
    reward: reward.toString(),
    ...(transactions !== undefined && { transactions: transactions.map(transactionToJson) }),
  };
}

/** Block data from ARK's JSON; `network` fills transactions that omit their network byte. */
export function blockFromJson(
  json: unknown,
  options: { readonly network?: number } = {},
): BlockData<TransactionData> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new InvalidBlockError('block', 'expected a JSON object');
  }
  const source = json as Record<string, unknown>;
  const transactions = source.transactions;
  if (transactions !== undefined && !Array.isArray(transactions)) {
    throw new InvalidBlockError('transactions', 'expected a list');
  }
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
    ...(transactions !== undefined && {
      transactions: transactions.map((tx) => transactionFromJson(tx, options)),
    }),
  };
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
