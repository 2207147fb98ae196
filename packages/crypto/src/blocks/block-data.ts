/**
 * The block header, the one header type of the node: ARK 3.0's header fields, signed, with its
 * id. Amounts are bigint arktoshi; ids and keys are hex or decimal strings as ARK writes them.
 * Its JSON form is `BlockHeaderJson` (block-json.ts), its P2P form `WireBlockHeader`
 * (block-header-wire.ts).
 */
export interface BlockHeader {
  /** Short decimal id, or 64 hex chars once the milestone sets `block.idFullSha256`. */
  readonly id: string;
  readonly version: number;
  /** Seconds since the network's epoch. */
  readonly timestamp: number;
  readonly height: number;
  /** The previous block's id; null only for the genesis block. */
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
  /** Hex DER ECDSA signature of sha256(header without signature). */
  readonly blockSignature: string;
}

/** A block by its id and height, as common-block searches, probes and forgers name it. */
export type BlockReference = Pick<BlockHeader, 'id' | 'height'>;

/** A header as signed, before its id is known: the id is the hash of these fields. */
export type SignedBlockHeader = Omit<BlockHeader, 'id'>;

/** A header as a forger drafts it, before signing. */
export type UnsignedBlockHeader = Omit<SignedBlockHeader, 'blockSignature'>;

/** A block: its header, and its transactions when it carries them. */
export interface BlockData<T = unknown> extends BlockHeader {
  readonly transactions?: readonly T[];
}
