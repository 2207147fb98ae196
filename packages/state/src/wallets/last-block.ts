import { headerWithHexIds, type BlockHeader, type HeaderWithHexIds } from '@lni/crypto';

/**
 * The block a delegate forged last, its whole header as ARK 3.x keeps it in the wallet
 * (`attributes.delegate.lastBlock`, ARK's deserialized block data): ids, height, timestamp
 * (seconds since the epoch), totals, payload, generator and signature, and the ids in the hex
 * form of the header bytes, `idHex` and `previousBlockHex`.
 */
export type LastBlock = HeaderWithHexIds;

/** The header of a block with its ids in hex, without its transactions or anything else. */
export function lastBlockOf(block: BlockHeader): LastBlock {
  return headerWithHexIds(block);
}
