import type { BlockHeader } from '@lni/crypto';
import type { BlockReference } from '@lni/crypto';

/**
 * The public P2P messages as LNI handles them, decoded and checked. Their wire form is ARK Core
 * 3.x's protobuf (`schema.ts`, `codecs.ts`); fields marked LNI travel in field numbers ARK skips.
 */

/** Sent with every public request: ARK refuses a request without them. */
export interface RequestHeaders {
  /** The sender's announced version (semver). */
  readonly version: string;
  /** LNI: the P2P port the sender listens on. ARK peers listen on the network's port. */
  readonly port?: number;
}

export interface StatusRequest {
  readonly headers?: RequestHeaders;
}

export interface PeerPlugin {
  readonly port: number;
  readonly enabled: boolean;
  readonly estimateTotalCount?: boolean;
}

export interface StatusReply {
  readonly state: {
    readonly height: number;
    readonly forgingAllowed: boolean;
    readonly currentSlot: number;
    readonly header: BlockHeader;
  };
  readonly config: {
    readonly version: string;
    readonly network: {
      readonly name: string;
      readonly nethash: string;
      readonly explorer: string;
      readonly token: { readonly name: string; readonly symbol: string };
      /** The network's address version byte (pubKeyHash). */
      readonly version: number;
    };
    /** Public services of the peer by package name (`@arkecosystem/core-api` is its API). */
    readonly plugins: Readonly<Record<string, PeerPlugin>>;
  };
}

export interface PeersRequest {
  readonly headers?: RequestHeaders;
}

export interface PeerAddressEntry {
  readonly ip: string;
  readonly port: number;
}

export interface CommonBlocksRequest {
  readonly ids: readonly string[];
  readonly headers?: RequestHeaders;
}

export interface CommonBlocksReply {
  /** The highest of the asked ids the peer has; null when it has none of them. */
  readonly common: BlockReference | null;
}

export interface BlocksRequest {
  /** The blocks above this height are asked for. */
  readonly lastBlockHeight: number;
  readonly blockLimit: number;
  readonly headersOnly: boolean;
  readonly headers?: RequestHeaders;
}

/** A block as getBlocks carries it: its header, and its transactions' serialized bytes. */
export interface WireBlock {
  readonly header: BlockHeader;
  /** Empty for headers-only answers. */
  readonly transactions: readonly Buffer[];
}

export interface PostBlockRequest {
  /** The block serialized with its transactions (ARK's serializeWithTransactions). */
  readonly block: Buffer;
  readonly headers?: RequestHeaders;
  /** LNI: nodes that passed the block on before the sender. */
  readonly hops: number;
}

export type BlockVerdictName = 'accepted' | 'known' | 'rejected';

export interface PostBlockReply {
  /** ARK's meaning: true when the block was taken or is known. */
  readonly status: boolean;
  readonly height: number;
  /** LNI only; absent in ARK's replies. */
  readonly verdict?: BlockVerdictName;
  readonly reason?: string;
}

export interface PostTransactionsRequest {
  readonly transactions: readonly Buffer[];
  readonly headers?: RequestHeaders;
  readonly hops: number;
}

export interface PostTransactionsReply {
  /** Ids of the transactions the pool took. */
  readonly accept: readonly string[];
  /** LNI only: indexes of refused transactions with the reason; empty from ARK. */
  readonly invalid: readonly { readonly index: number; readonly reason: string }[];
}
