import type { BlockHeader } from './block-data.js';

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
