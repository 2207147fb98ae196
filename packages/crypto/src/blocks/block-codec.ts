import type { Milestones } from '../networks/milestones.js';
import { DeserializationError } from '../transactions/deserialization-error.js';
import { deserializeTransaction } from '../transactions/deserializer.js';
import { serializeTransaction } from '../transactions/serializer.js';
import type { TransactionData } from '../transactions/transaction-data.js';
import type { BlockData } from './block-data.js';
import { BlockDeserializationError } from './block-error.js';
import { deserializeBlockParts } from './deserialize-block.js';
import { serializeBlock } from './serialize-block.js';

/** The wire bytes of a block with its transactions (header only when it has none listed). */
export function serializeFullBlock(
  block: BlockData<TransactionData>,
  milestones: Milestones,
): Buffer {
  return serializeBlock(
    block,
    (block.transactions ?? []).map((tx) => serializeTransaction(tx)),
    milestones,
  );
}

/**
 * A block with its transactions from wire bytes. Any flaw, in the header or in a transaction, is
 * a BlockDeserializationError whose offset counts from the start of the block.
 */
export function deserializeBlock(
  bytes: Uint8Array,
  milestones: Milestones,
): BlockData<TransactionData> {
  return readBlock(bytes, milestones).block;
}

/** A block read from wire bytes, with the bytes each of its transactions was read from. */
export interface ReadBlock {
  readonly block: BlockData<TransactionData>;
  /** In block order; empty when the bytes held the header only. */
  readonly serialized: readonly Buffer[];
}

/**
 * deserializeBlock, keeping each transaction's wire bytes, so that what checks and stores the
 * block need not serialize its transactions again.
 */
export function readBlock(bytes: Uint8Array, milestones: Milestones): ReadBlock {
  const { block, transactions } = deserializeBlockParts(bytes, milestones);
  if (transactions === undefined) return { block, serialized: [] };
  let offset = bytes.length - transactions.reduce((sum, tx) => sum + tx.length, 0);
  const data = transactions.map((tx, index) => {
    try {
      return deserializeTransaction(tx);
    } catch (error) {
      if (!(error instanceof DeserializationError)) throw error;
      throw new BlockDeserializationError(
        offset + error.offset,
        `transactions[${index}]`,
        error.message,
        { cause: error },
      );
    } finally {
      offset += tx.length;
    }
  });
  return { block: { ...block, transactions: data }, serialized: transactions };
}
