import type { BlockHeader, BlockReference } from '@lni/crypto';

/**
 * What the P2P plugin needs from the ledger. The `state` plugin registers the implementation
 * in the container as `chain`; p2p decodes and checks the wire, the ledger judges content.
 */
export interface Chain {
  /** The network this ledger follows, as getStatus announces it; other nethashes are refused. */
  readonly network: NetworkIdentity;
  status(): ChainStatus;
  /**
   * Blocks from `height` upwards in height order, at most `limit`, their transactions' bytes
   * left out when `headersOnly`. Stops before `maxBytes` of transactions (always one block).
   */
  blocksFrom(
    height: number,
    limit: number,
    options: { readonly headersOnly: boolean; readonly maxBytes: number },
  ): Promise<readonly ChainBlock[]>;
  /**
   * The bytes postBlock carries for one of our blocks (header, signature, transactions). p2p
   * sends stored blocks so to a peer that refused a block for lacking its parent; without it,
   * such a peer is left to its own sync.
   */
  serializeBlock?(block: ChainBlock): Buffer;
  /** The highest of `ids` that is on our chain, or undefined when none is. */
  commonBlock(ids: readonly string[]): Promise<BlockReference | undefined>;
  /** Ids of our blocks at `heights` (heights above ours are left out), in the order asked. */
  blockIds(heights: readonly number[]): Promise<readonly BlockReference[]>;
  /**
   * Whether a header a peer showed is authentic: its id and signature hold and, where the ledger
   * knows the round of its height, its generator is one of that round's delegates.
   */
  checkHeader(header: BlockHeader): Promise<HeaderCheck>;
  /** A block from a peer: serialized whole (postBlock) or as header and transactions (getBlocks). */
  acceptBlock(block: IncomingBlock, from: PeerAddress): Promise<BlockVerdict>;
  acceptTransactions(
    transactions: readonly Buffer[],
    from: PeerAddress,
  ): Promise<TransactionsVerdict>;
  /**
   * Rolls our chain back so that the block at `height` is the last one (its transactions go
   * back to the pool). Sync calls it on a fork, before following the chain most peers follow.
   */
  revertTo(height: number): Promise<void>;
  /** Blocks per round (active delegates) at our height: peers' headers are checked per round. */
  roundLength?(): number;
  /**
   * Version ranges (semver) peers must announce at `height`, from the network's milestones
   * (`p2p.minimumVersions`); none when the milestones say nothing.
   */
  minimumPeerVersions?(height: number): readonly string[];
  /**
   * Subscribes to transactions submitted to this node other than by a peer (its API), so p2p
   * passes them on; returns an unsubscribe. Without it only transactions from peers travel.
   */
  onSubmittedTransactions?(listener: (transactions: readonly Buffer[]) => void): () => void;
}

/** What getStatus says about the network (ARK's `config.network`). */
export interface NetworkIdentity {
  readonly name: string;
  readonly nethash: string;
  readonly explorer: string;
  readonly token: string;
  readonly symbol: string;
  /** The address version byte (pubKeyHash). */
  readonly version: number;
}

/** A stored block as getBlocks serves it. */
export interface ChainBlock {
  readonly header: BlockHeader;
  /** Serialized transactions, signatures included; empty for headers only. */
  readonly transactions: readonly Buffer[];
}

export type IncomingBlock = { readonly serialized: Buffer } | ChainBlock;

export interface ChainStatus {
  readonly height: number;
  readonly header: BlockHeader;
  /** Whether now is within the forging window of the current slot. */
  readonly forgingAllowed: boolean;
  readonly currentSlot: number;
}

export interface PeerAddress {
  readonly ip: string;
  readonly port?: number;
}

export type HeaderCheck =
  { readonly valid: true } | { readonly valid: false; readonly reason: string };

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
