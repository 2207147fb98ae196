import type { BlockHeader } from './block-data.js';
import { blockIdHex } from './block-id-format.js';

/**
 * The header of a block alone: its transactions and whatever else the object carries are left
 * out, so that what is kept (a delegate's last block), stored or sent is the header and no more.
 */
export function blockHeaderOf(block: BlockHeader): BlockHeader {
  return {
    id: block.id,
    version: block.version,
    timestamp: block.timestamp,
    height: block.height,
    previousBlock: block.previousBlock,
    numberOfTransactions: block.numberOfTransactions,
    totalAmount: block.totalAmount,
    totalFee: block.totalFee,
    reward: block.reward,
    payloadLength: block.payloadLength,
    payloadHash: block.payloadHash,
    generatorPublicKey: block.generatorPublicKey,
    blockSignature: block.blockSignature,
  };
}

/** A header with its ids also in the hex of the header's bytes, as ARK 3.x's block data has them. */
export interface HeaderWithHexIds extends BlockHeader {
  readonly idHex: string;
  readonly previousBlockHex: string;
}

/** The eight zero bytes a genesis header holds where other headers name their previous block. */
const NO_BLOCK_HEX = '0'.repeat(16);

/** The header alone (see blockHeaderOf), with `idHex` and `previousBlockHex`. */
export function headerWithHexIds(block: BlockHeader): HeaderWithHexIds {
  const header = blockHeaderOf(block);
  return {
    ...header,
    idHex: blockIdHex(header.id),
    previousBlockHex:
      header.previousBlock === null ? NO_BLOCK_HEX : blockIdHex(header.previousBlock),
  };
}
