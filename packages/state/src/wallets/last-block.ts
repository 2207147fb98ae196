import { blockIdHex, type BlockData } from '@lni/crypto';

/** A block header as a block carries it, without its transactions. */
export type BlockHeaderData = Omit<BlockData, 'transactions'>;

/**
 * The block a delegate forged last, its whole header as ARK 3.x keeps it in the wallet
 * (`attributes.delegate.lastBlock`, ARK's deserialized block data): ids, height, timestamp
 * (seconds since the epoch), totals, payload, generator and signature, and the ids in the hex
 * form of the header bytes, `idHex` and `previousBlockHex`.
 */
export interface LastBlock extends BlockHeaderData {
  readonly idHex: string;
  readonly previousBlockHex: string;
}

/** The header of a block, without its transactions and whatever else the object carries. */
export function lastBlockOf(block: BlockHeaderData): LastBlock {
  return {
    id: block.id,
    idHex: blockIdHex(block.id),
    version: block.version,
    timestamp: block.timestamp,
    height: block.height,
    previousBlock: block.previousBlock,
    previousBlockHex: block.previousBlock === null ? NO_BLOCK_HEX : blockIdHex(block.previousBlock),
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

/** The eight zero bytes a genesis header holds where other headers name their previous block. */
const NO_BLOCK_HEX = '0'.repeat(16);
