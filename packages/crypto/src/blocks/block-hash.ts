import { sha256 } from '../hashing/hash.js';
import type { Milestones } from '../networks/milestones.js';
import type { SignedBlockHeader, UnsignedBlockHeader } from './block-data.js';
import { idFromHash, idIsFull } from './block-id-format.js';
import { serializeBlockHeader } from './serialize-block.js';

/** The hash a block signature covers: sha256 of the header without its signature. */
export function blockSigningHash(header: UnsignedBlockHeader, milestones: Milestones): Buffer {
  return sha256(serializeBlockHeader(header, milestones, { includeSignature: false }));
}

/** The id of a signed header: short decimal, or full sha256 hex from `block.idFullSha256` on. */
export function blockId(header: SignedBlockHeader, milestones: Milestones): string {
  const hash = sha256(serializeBlockHeader(header, milestones));
  return idFromHash(hash, idIsFull(milestones, header.height));
}

/** The payload hash of a block: sha256 of its transactions' 32-byte ids, concatenated. */
export function payloadHashOf(transactionIds: readonly string[]): string {
  return sha256(Buffer.concat(transactionIds.map((id) => Buffer.from(id, 'hex')))).toString('hex');
}
