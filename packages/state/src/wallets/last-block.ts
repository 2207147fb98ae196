import { blockHeaderOf, blockIdHex, type BlockHeader } from '@lni/crypto';

/**
 * The block a delegate forged last, its whole header as ARK 3.x keeps it in the wallet
 * (`attributes.delegate.lastBlock`, ARK's deserialized block data): ids, height, timestamp
 * (seconds since the epoch), totals, payload, generator and signature, and the ids in the hex
 * form of the header bytes, `idHex` and `previousBlockHex`.
 */
export interface LastBlock extends BlockHeader {
  readonly idHex: string;
  readonly previousBlockHex: string;
}

/** The header of a block with its ids in hex, without its transactions or anything else. */
export function lastBlockOf(block: BlockHeader): LastBlock {
  const header = blockHeaderOf(block);
  return {
    ...header,
    idHex: blockIdHex(header.id),
    previousBlockHex:
      header.previousBlock === null ? NO_BLOCK_HEX : blockIdHex(header.previousBlock),
  };
}

/** The eight zero bytes a genesis header holds where other headers name their previous block. */
const NO_BLOCK_HEX = '0'.repeat(16);
