import type { Logger } from '@lni/kernel';
import type { Chain, PeerAddress } from '@lni/state/contracts';
import type { PeerRepository } from '../peers/peer-repository.js';
import { RouteError } from '../transport/route-error.js';
import { MAX_PEERS_PER_REPLY } from '../wire/codecs.js';
import type {
  BlocksRequest,
  CommonBlocksReply,
  CommonBlocksRequest,
  PeerAddressEntry,
  PeerPlugin,
  PostBlockReply,
  PostBlockRequest,
  PostTransactionsReply,
  PostTransactionsRequest,
  StatusReply,
  WireBlock,
} from '../wire/messages.js';

/** What happens after the ledger judged a posted block or transactions (broadcast, sync). */
export interface MessageHooks {
  /** `height`: our last block's once the block was applied, i.e. the block's own. */
  blockAccepted?(block: Buffer, hops: number, from: PeerAddress, height: number): void;
  /** The ledger did not take a block (not the next one): we may be behind or on a fork. */
  blockRejected?(from: PeerAddress): void;
  transactionsAccepted?(transactions: readonly Buffer[], hops: number, from: PeerAddress): void;
}

export interface PublicHandlersDeps {
  readonly chain: Chain;
  readonly peers: PeerRepository;
  /** The version this node announces. */
  readonly version: string;
  /** This node's public services by package name, as getStatus lists them (its API). */
  readonly services: () => Readonly<Record<string, PeerPlugin>>;
  readonly maxTransactionsPerRequest: number;
  /** Bytes of transactions one getBlocks answer holds at most. */
  readonly maxBytesPerReply: number;
  readonly hooks: MessageHooks;
  readonly logger: Logger;
}

/** The answers to ARK Core 3.x's public P2P routes, from the ledger and the peer list. */
export class PublicHandlers {
  constructor(private readonly deps: PublicHandlersDeps) {}

  status(): StatusReply {
    const { chain, version } = this.deps;
    const { height, header, forgingAllowed, currentSlot } = chain.status();
    const network = chain.network;
    return {
      state: { height, forgingAllowed, currentSlot, header },
      config: {
        version,
        network: {
          name: network.name,
          nethash: network.nethash,
          explorer: network.explorer,
          token: { name: network.token, symbol: network.symbol },
          version: network.version,
        },
        plugins: this.deps.services(),
      },
    };
  }

  /** Our peers by latency, the asker left out (on a test machine, other nodes on its IP stay). */
  peers(asker: PeerAddress): PeerAddressEntry[] {
    return this.deps.peers
      .list()
      .filter((peer) => !(peer.ip === asker.ip && peer.port === asker.port))
      .sort((a, b) => a.latency - b.latency)
      .slice(0, MAX_PEERS_PER_REPLY)
      .map(({ ip, port }) => ({ ip, port }));
  }

  async commonBlocks({ ids }: CommonBlocksRequest): Promise<CommonBlocksReply> {
    const common = await this.deps.chain.commonBlock(ids);
    return { common: common ? { id: common.id, height: common.height } : null };
  }

  async blocks({ lastBlockHeight, blockLimit, headersOnly }: BlocksRequest): Promise<WireBlock[]> {
    const blocks = await this.deps.chain.blocksFrom(lastBlockHeight + 1, blockLimit, {
      headersOnly,
      maxBytes: this.deps.maxBytesPerReply,
    });
    return [...blocks];
  }

  async postBlock(request: PostBlockRequest, from: PeerAddress): Promise<PostBlockReply> {
    const { chain, peers, hooks } = this.deps;
    const verdict = await chain.acceptBlock({ serialized: request.block }, from);
    const height = chain.status().height;
    switch (verdict.status) {
      case 'invalid':
        peers.penalise(from.ip, 'invalidBlock', verdict.reason);
        throw new RouteError(422, `invalid block: ${verdict.reason}`);
      case 'accepted':
        hooks.blockAccepted?.(request.block, request.hops, from, height);
        return { status: true, height, verdict: 'accepted' };
      case 'known':
        return { status: true, height, verdict: 'known' };
      case 'rejected':
        hooks.blockRejected?.(from);
        return { status: false, height, verdict: 'rejected', reason: verdict.reason };
    }
  }

  async postTransactions(
    request: PostTransactionsRequest,
    from: PeerAddress,
  ): Promise<PostTransactionsReply> {
    const { transactions, hops } = request;
    const max = this.deps.maxTransactionsPerRequest;
    if (transactions.length > max) {
      this.deps.peers.penalise(from.ip, 'malformedMessage', `${transactions.length} transactions`);
      throw new RouteError(413, `more than ${max} transactions in one request`);
    }
    if (transactions.length === 0) return { accept: [], invalid: [] };
    const verdict = await this.deps.chain.acceptTransactions(transactions, from);
    const invalid = new Set(verdict.invalid.map((entry) => entry.index));
    const valid = transactions.filter((_bytes, index) => !invalid.has(index));
    if (verdict.accepted.length > 0 && valid.length > 0) {
      this.deps.hooks.transactionsAccepted?.(valid, hops, from);
    }
    return { accept: [...verdict.accepted], invalid: [...verdict.invalid] };
  }
}
