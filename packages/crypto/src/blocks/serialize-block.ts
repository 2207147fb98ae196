import type { Milestones } from '../networks/milestones.js';
import { InvalidBlockError } from './block-error.js';
import type { SignedBlockHeader, UnsignedBlockHeader } from './block-data.js';
import { previousIdBytes, previousIdIsFull } from './block-id-format.js';

const U64_MAX = (1n << 64n) - 1n;

/**
 * The header bytes in ARK 3.0's layout (little-endian): version u32, timestamp u32, height u32,
 * previous block id (8 or 32 bytes), number of transactions u32, total amount u64, total fee u64,
 * reward u64, payload length u32, payload hash 32, generator public key 33, then the DER
 * signature unless `includeSignature` is false (the bytes that get signed).
 */
export function serializeBlockHeader(
  header: UnsignedBlockHeader & { readonly blockSignature?: string },
  milestones: Milestones,
  options: { readonly includeSignature?: boolean } = {},
): Buffer {
  const height = u32(header.height, 'height');
  if (height < 1) throw new InvalidBlockError('height', 'must be at least 1');
  const previous = previousIdBytes(header.previousBlock, previousIdIsFull(milestones, height));
  const payloadHash = hexBytes(header.payloadHash, 32, 'payloadHash');
  const generator = hexBytes(header.generatorPublicKey, 33, 'generatorPublicKey');
  const includeSignature = options.includeSignature ?? true;
  const signature = includeSignature ? signatureBytes(header.blockSignature) : Buffer.alloc(0);

  const buffer = Buffer.alloc(12 + previous.length + 4 + 24 + 4 + 32 + 33 + signature.length);
  let offset = buffer.writeUInt32LE(u32(header.version, 'version'), 0);
  offset = buffer.writeUInt32LE(u32(header.timestamp, 'timestamp'), offset);
  offset = buffer.writeUInt32LE(height, offset);
  offset += previous.copy(buffer, offset);
  offset = buffer.writeUInt32LE(u32(header.numberOfTransactions, 'numberOfTransactions'), offset);
  offset = buffer.writeBigUInt64LE(u64(header.totalAmount, 'totalAmount'), offset);
  offset = buffer.writeBigUInt64LE(u64(header.totalFee, 'totalFee'), offset);
  offset = buffer.writeBigUInt64LE(u64(header.reward, 'reward'), offset);
  offset = buffer.writeUInt32LE(u32(header.payloadLength, 'payloadLength'), offset);
  offset += payloadHash.copy(buffer, offset);
  offset += generator.copy(buffer, offset);
  signature.copy(buffer, offset);
  return buffer;
}

/**
 * A full block: the signed header, one u32 length per transaction, then the transactions'
 * serialized bytes in block order.
 */
export function serializeBlock(
  header: SignedBlockHeader,
  transactions: readonly Uint8Array[],
  milestones: Milestones,
): Buffer {
  const head = serializeBlockHeader(header, milestones);
  const lengths = Buffer.alloc(4 * transactions.length);
  transactions.forEach((bytes, index) => lengths.writeUInt32LE(bytes.length, 4 * index));
  return Buffer.concat([head, lengths, ...transactions]);
}

function u32(value: unknown, field: string): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 0xffffffff) {
    throw new InvalidBlockError(
      field,
      `expected an integer in [0, 2^32 - 1], got ${String(value)}`,
    );
  }
  return value as number;
}

function u64(value: unknown, field: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) {
    throw new InvalidBlockError(field, `expected a bigint in [0, 2^64 - 1], got ${String(value)}`);
  }
  return value;
}

function hexBytes(value: unknown, length: number, field: string): Buffer {
  if (typeof value !== 'string' || value.length !== length * 2 || !/^[0-9a-f]*$/i.test(value)) {
    throw new InvalidBlockError(field, `expected ${length} bytes as hex`);
  }
  return Buffer.from(value, 'hex');
}

function signatureBytes(value: unknown): Buffer {
  if (typeof value !== 'string' || value.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(value)) {
    throw new InvalidBlockError('blockSignature', 'expected a DER signature as hex');
  }
  const bytes = Buffer.from(value, 'hex');
  // A reader finds the signature's end from its DER length byte, so the two must agree.
  if (bytes.length < 2 || bytes[1]! + 2 !== bytes.length) {
    throw new InvalidBlockError('blockSignature', 'DER length byte does not match its size');
  }
  return bytes;
}
