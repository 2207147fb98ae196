/**
 * A block header in ARK 3.0's JSON shape. Amounts are bigint arktoshi; ids and keys are hex or
 * decimal strings as ARK writes them. `previousBlock` is null only for the genesis block.
 */
export interface UnsignedBlockHeader {
  readonly version: number;
  /** Seconds since the network's epoch. */
  readonly timestamp: number;
  readonly height: number;
  /** Short decimal id, or 64 hex chars once the milestone sets `block.idFullSha256`. */
  readonly previousBlock: string | null;
  readonly numberOfTransactions: number;
  readonly totalAmount: bigint;
  readonly totalFee: bigint;
  readonly reward: bigint;
  readonly payloadLength: number;
  /** Hex sha256 of the concatenated transaction ids. */
  readonly payloadHash: string;
  /** Hex compressed public key of the delegate that forged the block. */
  readonly generatorPublicKey: string;
}

export interface BlockHeader extends UnsignedBlockHeader {
  /** Hex DER ECDSA signature of sha256(header without signature). */
  readonly blockSignature: string;
}

/** A signed block header with its id, and its transactions when it carries them. */
export interface BlockData<T = unknown> extends BlockHeader {
  readonly id: string;
  readonly transactions?: readonly T[];
}
