import type { FieldCatalog } from '../query/fields.js';
import { confirmationsOf, type ChainContext } from './chain-context.js';
import { toJsonValue, type JsonValue } from './json-values.js';
import { timestampOf, type ApiTimestamp } from './timestamp.js';

/** A confirmed transaction as storage returns it (epoch seconds of its block). */
export interface TransactionView {
  readonly id: string;
  readonly blockId: string;
  readonly blockHeight: number;
  readonly version: number;
  readonly type: number;
  readonly typeGroup: number;
  readonly nonce: bigint;
  readonly senderPublicKey: string;
  readonly recipientId?: string | null;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly vendorField?: string | null;
  readonly asset?: unknown;
  readonly signature?: string | null;
  readonly secondSignature?: string | null;
  readonly signatures?: readonly string[] | null;
  readonly timestamp: number;
}

/** A confirmed transaction in ARK Core 3.0's API shape. */
export interface TransactionResource {
  readonly id: string;
  readonly blockId: string;
  readonly version: number;
  readonly type: number;
  readonly typeGroup: number;
  readonly amount: string;
  readonly fee: string;
  readonly sender: string;
  readonly senderPublicKey: string;
  readonly recipient?: string;
  readonly signature?: string;
  readonly signSignature?: string;
  readonly signatures?: readonly string[];
  readonly vendorField?: string;
  readonly asset?: JsonValue;
  readonly confirmations: number;
  readonly timestamp: ApiTimestamp;
  readonly nonce: string;
}

export function transactionResource(
  transaction: TransactionView,
  context: ChainContext,
): TransactionResource {
  // Built key by key in the resource's order, optional keys only when set: every page builds
  // many, and conditional spreads cost several times what these assignments do.
  const resource: Mutable<TransactionResource> = {
    id: transaction.id,
    blockId: transaction.blockId,
    version: transaction.version,
    type: transaction.type,
    typeGroup: transaction.typeGroup,
    amount: transaction.amount.toString(),
    fee: transaction.fee.toString(),
    sender: context.addressOf(transaction.senderPublicKey),
    senderPublicKey: transaction.senderPublicKey,
  } as Mutable<TransactionResource>;
  if (transaction.recipientId) resource.recipient = transaction.recipientId;
  if (transaction.signature) resource.signature = transaction.signature;
  if (transaction.secondSignature) resource.signSignature = transaction.secondSignature;
  if (transaction.signatures?.length) resource.signatures = transaction.signatures;
  if (transaction.vendorField) resource.vendorField = transaction.vendorField;
  const asset = transaction.asset === undefined ? undefined : toJsonValue(transaction.asset);
  if (asset !== undefined && asset !== null) resource.asset = asset;
  resource.confirmations = confirmationsOf(transaction.blockHeight, context);
  resource.timestamp = timestampOf(transaction.timestamp, context.epochStart);
  resource.nonce = transaction.nonce.toString();
  return resource;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The transaction fields a client may filter and order on. */
export const transactionCatalog: FieldCatalog = {
  id: { type: 'string' },
  blockId: { type: 'string' },
  version: { type: 'integer' },
  type: { type: 'integer' },
  typeGroup: { type: 'integer' },
  amount: { type: 'amount' },
  fee: { type: 'amount' },
  sender: { type: 'string', order: false },
  senderPublicKey: { type: 'string' },
  recipient: { type: 'string' },
  vendorField: { type: 'string' },
  nonce: { type: 'amount' },
  'timestamp.epoch': { type: 'integer' },
  'timestamp.unix': { type: 'integer' },
  'asset.votes': { type: 'string', order: false },
  'asset.delegate.username': { type: 'string' },
  'asset.ipfs': { type: 'string' },
  'asset.payments.recipientId': { type: 'string', order: false },
  'asset.lock.secretHash': { type: 'string' },
  'asset.claim.lockTransactionId': { type: 'string' },
  'asset.refund.lockTransactionId': { type: 'string' },
};
