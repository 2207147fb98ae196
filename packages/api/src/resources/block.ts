import type { BlockHeader } from '@lni/crypto';
import type { FieldCatalog } from '../query/fields.js';
import { confirmationsOf, type ChainContext } from './chain-context.js';
import { timestampOf, type ApiTimestamp } from './timestamp.js';

/** A block in ARK Core 3.0's API shape. */
export interface BlockResource {
  readonly id: string;
  readonly version: number;
  readonly height: number;
  readonly previous?: string;
  readonly forged: {
    readonly reward: string;
    readonly fee: string;
    readonly amount: string;
    readonly total: string;
  };
  readonly payload: { readonly hash: string; readonly length: number };
  readonly generator: {
    readonly username?: string;
    readonly address: string;
    readonly publicKey: string;
  };
  readonly signature: string;
  readonly confirmations: number;
  readonly transactions: number;
  readonly timestamp: ApiTimestamp;
}

export function blockResource(block: BlockHeader, context: ChainContext): BlockResource {
  const username = context.usernameOf?.(block.generatorPublicKey);
  return {
    id: block.id,
    version: block.version,
    height: block.height,
    ...(block.previousBlock && { previous: block.previousBlock }),
    forged: {
      reward: block.reward.toString(),
      fee: block.totalFee.toString(),
      amount: block.totalAmount.toString(),
      total: (block.reward + block.totalFee).toString(),
    },
    payload: { hash: block.payloadHash, length: block.payloadLength },
    generator: {
      ...(username !== undefined && { username }),
      address: context.addressOf(block.generatorPublicKey),
      publicKey: block.generatorPublicKey,
    },
    signature: block.blockSignature,
    confirmations: confirmationsOf(block.height, context),
    transactions: block.numberOfTransactions,
    timestamp: timestampOf(block.timestamp, context.epochStart),
  };
}

/** The block fields a client may filter and order on. */
export const blockCatalog: FieldCatalog = {
  id: { type: 'string' },
  version: { type: 'integer' },
  height: { type: 'integer' },
  previous: { type: 'string' },
  'forged.reward': { type: 'amount' },
  'forged.fee': { type: 'amount' },
  'forged.amount': { type: 'amount' },
  // reward + fee is not a stored column: shown, not searchable.
  'forged.total': { type: 'amount', filter: false, order: false },
  'payload.hash': { type: 'string' },
  'payload.length': { type: 'integer' },
  'generator.publicKey': { type: 'string' },
  transactions: { type: 'integer' },
  'timestamp.epoch': { type: 'integer' },
};
