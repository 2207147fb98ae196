import type { BlockHeader } from '@lni/crypto';
import type { StoredRoundDelegate, StoredTransaction } from '../records.js';

/** Columns as `pg` returns them: BIGINT as string, BYTEA as Buffer, JSONB parsed. */
export interface BlockRow {
  id: string;
  version: number;
  timestamp: number;
  previous_block: string | null;
  height: number;
  number_of_transactions: number;
  total_amount: string;
  total_fee: string;
  reward: string;
  payload_length: number;
  payload_hash: string;
  generator_public_key: string;
  block_signature: string;
}

export interface TransactionRow {
  id: string;
  version: number;
  block_id: string;
  block_height: number;
  sequence: number;
  timestamp: number;
  nonce: string;
  sender_public_key: string;
  recipient_id: string | null;
  type: number;
  type_group: number;
  vendor_field: Buffer | null;
  amount: string;
  fee: string;
  serialized: Buffer;
  asset: Record<string, unknown> | null;
}

export const BLOCK_COLUMNS =
  'id, version, "timestamp", previous_block, height, number_of_transactions, total_amount, total_fee, reward, payload_length, payload_hash, generator_public_key, block_signature';

export const TRANSACTION_COLUMNS =
  'id, version, block_id, block_height, sequence, "timestamp", nonce, sender_public_key, recipient_id, type, type_group, vendor_field, amount, fee, serialized, asset';

/**
 * A stored block as the node reads it. The genesis block has no previous block: NULL as this
 * node writes it, or '0' as ARK 3.x stores it (a database upgraded from 2.7 keeps ARK's).
 */
export function blockFromRow(row: BlockRow): BlockHeader {
  return {
    id: row.id,
    version: row.version,
    timestamp: row.timestamp,
    height: row.height,
    previousBlock: row.height === 1 && row.previous_block === '0' ? null : row.previous_block,
    numberOfTransactions: row.number_of_transactions,
    totalAmount: BigInt(row.total_amount),
    totalFee: BigInt(row.total_fee),
    reward: BigInt(row.reward),
    payloadLength: row.payload_length,
    payloadHash: row.payload_hash,
    generatorPublicKey: row.generator_public_key,
    blockSignature: row.block_signature,
  };
}

export function transactionFromRow(row: TransactionRow): StoredTransaction {
  return {
    id: row.id,
    blockId: row.block_id,
    blockHeight: row.block_height,
    sequence: row.sequence,
    version: row.version,
    timestamp: row.timestamp,
    nonce: BigInt(row.nonce),
    senderPublicKey: row.sender_public_key,
    recipientId: row.recipient_id,
    type: row.type,
    typeGroup: row.type_group,
    vendorField: row.vendor_field ? row.vendor_field.toString('utf8') : null,
    amount: BigInt(row.amount),
    fee: BigInt(row.fee),
    asset: row.asset,
    serialized: new Uint8Array(row.serialized),
  };
}

export function roundDelegateFromRow(row: {
  round: string;
  public_key: string;
  balance: string;
}): StoredRoundDelegate {
  return { round: Number(row.round), publicKey: row.public_key, balance: BigInt(row.balance) };
}
