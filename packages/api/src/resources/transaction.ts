import type { FieldCatalog } from '../query/fields.js';
import { confirmationsOf, type ChainContext } from './chain-context.js';
import { toJsonValue, type JsonValue } from './json-values.js';
import type { TransactionView } from './ledger-views.js';
import { timestampOf, type ApiTimestamp } from './timestamp.js';

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
  const asset = transaction.asset === undefined ? undefined : toJsonValue(transaction.asset);
  return {
    id: transaction.id,
    blockId: transaction.blockId,
    version: transaction.version,
    type: transaction.type,
    typeGroup: transaction.typeGroup,
    amount: transaction.amount.toString(),
    fee: transaction.fee.toString(),
    sender: context.addressOf(transaction.senderPublicKey),
    senderPublicKey: transaction.senderPublicKey,
    ...(transaction.recipientId && { recipient: transaction.recipientId }),
    ...(transaction.signature && { signature: transaction.signature }),
    ...(transaction.secondSignature && { signSignature: transaction.secondSignature }),
    ...(transaction.signatures?.length && { signatures: transaction.signatures }),
    ...(transaction.vendorField && { vendorField: transaction.vendorField }),
    ...(asset !== undefined && asset !== null && { asset }),
    confirmations: confirmationsOf(transaction.blockHeight, context),
    timestamp: timestampOf(transaction.timestamp, context.epochStart),
    nonce: transaction.nonce.toString(),
  };
}

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
