import type { Milestones } from '../networks/milestones.js';
import { InvalidBlockError } from './block-error.js';

const U64_MAX = (1n << 64n) - 1n;

/**
 * Whether the header of the block at `height` carries its previous block id as 32 bytes. ARK asks
 * the milestone of the previous height, since that is the one that chose the previous block's id.
 */
export function previousIdIsFull(milestones: Milestones, height: number): boolean {
  return milestones.at(Math.max(1, height - 1)).block.idFullSha256 === true;
}

/** Whether the id of the block at `height` is the full sha256 hex rather than the short decimal. */
export function idIsFull(milestones: Milestones, height: number): boolean {
  return milestones.at(Math.max(1, height)).block.idFullSha256 === true;
}

/** The bytes of a previous block id in a header: 8 big-endian bytes, or 32 in the full form. */
export function previousIdBytes(previousBlock: string | null, full: boolean): Buffer {
  if (full) {
    if (typeof previousBlock !== 'string' || !/^[0-9a-f]{64}$/i.test(previousBlock)) {
      throw new InvalidBlockError('previousBlock', 'expected 64 hex characters (full sha256 id)');
    }
    return Buffer.from(previousBlock, 'hex');
  }
  const bytes = Buffer.alloc(8);
  if (previousBlock === null || previousBlock === '') return bytes;
  bytes.writeBigUInt64BE(shortIdValue(previousBlock, 'previousBlock'));
  return bytes;
}

/** The value of a short (decimal u64) block id. */
export function shortIdValue(id: unknown, field: string): bigint {
  if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) {
    throw new InvalidBlockError(field, 'expected a decimal block id (u64)');
  }
  const value = BigInt(id);
  if (value > U64_MAX) throw new InvalidBlockError(field, 'exceeds 2^64 - 1');
  return value;
}

/** The id a block gets from the sha256 of its signed header. */
export function idFromHash(hash: Buffer, full: boolean): string {
  if (full) return hash.toString('hex');
  // ARK reverses the first 8 bytes and reads them big-endian: a little-endian u64.
  return hash.readBigUInt64LE(0).toString();
}

/**
 * A block id as a header's bytes hold it, in hex (ARK's `idHex`, `previousBlockHex`): a full
 * id (64 hex) is that already; a short one is a decimal u64, its 8 bytes as 16 hex digits.
 */
export function blockIdHex(id: string): string {
  return id.length === 64 ? id : shortIdValue(id, 'id').toString(16).padStart(16, '0');
}
