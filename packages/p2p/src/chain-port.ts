/**
 * What the P2P plugin needs from the ledger. The `state` plugin registers the implementation
 * in the container as `p2pChain`; p2p validates message shapes, the ledger judges content.
 * Blocks and transactions travel as hex of their serialized bytes.
 */
export interface ChainPort {
  /** The network this ledger follows; peers of another nethash are refused. */
  readonly network: { readonly name: string; readonly nethash: string };
  status(): ChainStatus;
  /** Serialized blocks (hex) from `height` upwards, at most `limit`, in height order. */
  blocksFrom(height: number, limit: number): Promise<readonly string[]>;
  /** The highest of `ids` that is on our chain, or undefined when none is. */
  commonBlock(ids: readonly string[]): Promise<BlockReference | undefined>;
  acceptBlock(blockHex: string, from: PeerAddress): Promise<BlockVerdict>;
  acceptTransactions(
    transactionsHex: readonly string[],
    from: PeerAddress,
  ): Promise<TransactionsVerdict>;
  /**
   * Hook to check that a peer is on our chain (common blocks, delegates' signatures) before
   * it is trusted. Optional: without it a peer passing the handshake is trusted.
   */
  verifyPeer?(peer: PeerAddress, status: ChainStatus): Promise<PeerVerdict>;
  /**
   * Ids of our blocks at `heights` (heights above ours are left out). Sync needs it to find
   * the block it has in common with a peer on a fork; without it forks are not resolved.
   */
  blockIds?(heights: readonly number[]): Promise<readonly BlockReference[]>;
  /**
   * Rolls our chain back so that the block at `height` is the last one (its transactions go
   * back to the pool). Sync calls it on a fork, before following the chain most peers follow.
   */
  revertTo?(height: number): Promise<void>;
  /**
   * Subscribes to transactions submitted to this node other than by a peer (its API), so p2p
   * passes them on; returns an unsubscribe. Without it only transactions from peers travel.
   */
  onSubmittedTransactions?(listener: (transactionsHex: readonly string[]) => void): () => void;
}

export interface BlockReference {
  readonly id: string;
  readonly height: number;
}

/** The header fields of a block a peer shows in its status (ARK 3.0's block data, no transactions). */
export interface BlockHeader extends BlockReference {
  readonly version: number;
  readonly timestamp: number;
  readonly previousBlock: string | null;
  readonly numberOfTransactions: number;
  readonly totalAmount: string;
  readonly totalFee: string;
  readonly reward: string;
  readonly payloadLength: number;
  readonly payloadHash: string;
  readonly generatorPublicKey: string;
  readonly blockSignature?: string;
}

export interface ChainStatus {
  readonly height: number;
  readonly header: BlockHeader;
}

export interface PeerAddress {
  readonly ip: string;
  readonly port?: number;
}

/** `invalid` means the sender misbehaved (bad signature, wrong generator) and is penalised. */
export type BlockVerdict =
  | { readonly status: 'accepted' }
  | { readonly status: 'known' }
  | { readonly status: 'rejected'; readonly reason: string }
  | { readonly status: 'invalid'; readonly reason: string };

export interface TransactionsVerdict {
  /** Ids of the transactions the pool took. */
  readonly accepted: readonly string[];
  /** Indexes into the posted list of transactions that are invalid, with the reason. */
  readonly invalid: readonly { readonly index: number; readonly reason: string }[];
}

export type PeerVerdict =
  { readonly trusted: true } | { readonly trusted: false; readonly reason: string };
