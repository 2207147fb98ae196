import type { Milestones } from '../networks/milestones.js';
import { BlockDeserializationError } from './block-error.js';
import type { BlockData } from './block-data.js';
import { idFromHash, idIsFull, previousIdIsFull } from './block-id-format.js';
import { sha256 } from '../hashing/hash.js';
import { BlockReader } from './block-reader.js';

/** A block read from bytes: its header with id, and each transaction's bytes (undefined when the
 * bytes held the header only, as peers send when asked for headers). */
export interface DeserializedBlockParts {
  readonly block: BlockData<never>;
  readonly transactions: readonly Buffer[] | undefined;
}

/**
 * Reads a block in ARK 3.0's layout. Every read is bounds-checked before anything is allocated,
 * so truncated or hostile bytes end in a BlockDeserializationError naming the offset, never in
 * a crash or a large allocation.
 */
export function deserializeBlockParts(
  bytes: Uint8Array,
  milestones: Milestones,
): DeserializedBlockParts {
  const reader = new BlockReader(bytes);
  const version = reader.u32('version');
  const timestamp = reader.u32('timestamp');
  const heightOffset = reader.offset;
  const height = reader.u32('height');
  if (height < 1) throw new BlockDeserializationError(heightOffset, 'height', 'must be at least 1');
  const fullPrevious = previousIdIsFull(milestones, height);
  const previousRaw = reader.bytes(fullPrevious ? 32 : 8, 'previousBlock');
  const previousBlock = fullPrevious
    ? previousRaw.toString('hex')
    : height === 1 && previousRaw.every((byte) => byte === 0)
      ? null
      : previousRaw.readBigUInt64BE(0).toString();
  const numberOfTransactions = reader.u32('numberOfTransactions');
  const totalAmount = reader.u64('totalAmount');
  const totalFee = reader.u64('totalFee');
  const reward = reader.u64('reward');
  const payloadLength = reader.u32('payloadLength');
  const payloadHash = reader.bytes(32, 'payloadHash').toString('hex');
  const generatorPublicKey = reader.bytes(33, 'generatorPublicKey').toString('hex');
  // DER: 0x30, length, body; ARK trusts the length byte to find where the signature ends.
  const derLength = reader.peekByte(1, 'blockSignature');
  const blockSignature = reader.bytes(derLength + 2, 'blockSignature').toString('hex');
  const id = idFromHash(sha256(reader.slice(0, reader.offset)), idIsFull(milestones, height));
  const block: BlockData<never> = {
    id,
    version,
    timestamp,
    height,
    previousBlock,
    numberOfTransactions,
    totalAmount,
    totalFee,
    reward,
    payloadLength,
    payloadHash,
    generatorPublicKey,
    blockSignature,
  };
  if (reader.remaining() === 0) return { block, transactions: undefined };
  return { block, transactions: readTransactions(reader, numberOfTransactions) };
}

function readTransactions(reader: BlockReader, count: number): Buffer[] {
  const lengthsOffset = reader.offset;
  if (count * 4 > reader.remaining()) {
    throw new BlockDeserializationError(
      lengthsOffset,
      'transactionLengths',
      `${count} transactions need ${count * 4} bytes of lengths, only ${reader.remaining()} left`,
    );
  }
  const lengths: number[] = [];
  for (let i = 0; i < count; i++) lengths.push(reader.u32(`transactionLengths[${i}]`));
  const transactions = lengths.map((length, index) => {
    if (length === 0) {
      throw new BlockDeserializationError(reader.offset, `transactions[${index}]`, 'empty');
    }
    return reader.bytes(length, `transactions[${index}]`);
  });
  if (reader.remaining() > 0) {
    throw new BlockDeserializationError(
      reader.offset,
      'end',
      `${reader.remaining()} unexpected bytes after the last transaction`,
    );
  }
  return transactions;
}
