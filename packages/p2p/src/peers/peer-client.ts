import { MalformedAnswerError } from '../errors.js';
import type { OutgoingThrottle } from '../limits/outgoing-throttle.js';
import type { PeerConnection } from '../transport/peer-connection.js';
import {
  getBlocksCodec,
  getCommonBlocksCodec,
  getPeersCodec,
  getStatusCodec,
  postBlockCodec,
  postTransactionsCodec,
  type RouteCodec,
} from '../wire/codecs.js';
import type {
  CommonBlocksReply,
  PeerAddressEntry,
  PostBlockReply,
  PostTransactionsReply,
  RequestHeaders,
  StatusReply,
  WireBlock,
} from '../wire/messages.js';
import { MAX_REPLY_BYTES, routeId, type PublicRoute } from '../wire/routes.js';
import { WireError } from '../wire/wire-error.js';

export interface PeerClientOptions {
  readonly ip: string;
  readonly port: number;
  readonly connection: PeerConnection;
  /** What every request says about us (our version, our P2P port). */
  readonly headers: RequestHeaders;
  readonly throttle: OutgoingThrottle;
}

/** ARK's client timeouts: status, peers and common blocks 5 s, posts 10 s, blocks 30 s. */
const TIMEOUT_MS: Readonly<Record<PublicRoute, number>> = {
  getStatus: 5_000,
  getPeers: 5_000,
  getCommonBlocks: 5_000,
  getBlocks: 30_000,
  postBlock: 10_000,
  postTransactions: 10_000,
};

/**
 * The public routes of one peer over an open connection: requests throttled under ARK's
 * limits, replies decoded and checked. A reply that breaks the format is a MalformedAnswerError.
 */
export class PeerClient {
  constructor(private readonly options: PeerClientOptions) {}

  get ip(): string {
    return this.options.ip;
  }

  get port(): number {
    return this.options.port;
  }

  get address(): string {
    return this.options.connection.address;
  }

  get isOpen(): boolean {
    return this.options.connection.isOpen;
  }

  status(timeoutMs?: number): Promise<StatusReply> {
    return this.call('getStatus', getStatusCodec, { headers: this.options.headers }, timeoutMs);
  }

  peers(): Promise<readonly PeerAddressEntry[]> {
    return this.call('getPeers', getPeersCodec, { headers: this.options.headers });
  }

  commonBlocks(ids: readonly string[], timeoutMs?: number): Promise<CommonBlocksReply> {
    return this.call(
      'getCommonBlocks',
      getCommonBlocksCodec,
      { ids, headers: this.options.headers },
      timeoutMs,
    );
  }

  /** Blocks from `fromHeight` up (ARK asks for those above `lastBlockHeight`). */
  blocks(fromHeight: number, limit: number, headersOnly = false): Promise<readonly WireBlock[]> {
    return this.call('getBlocks', getBlocksCodec, {
      lastBlockHeight: fromHeight - 1,
      blockLimit: limit,
      headersOnly,
      headers: this.options.headers,
    });
  }

  postBlock(block: Buffer, hops: number): Promise<PostBlockReply> {
    return this.call('postBlock', postBlockCodec, { block, hops, headers: this.options.headers });
  }

  postTransactions(transactions: readonly Buffer[], hops: number): Promise<PostTransactionsReply> {
    return this.call('postTransactions', postTransactionsCodec, {
      transactions,
      hops,
      headers: this.options.headers,
    });
  }

  close(reason?: string): void {
    this.options.connection.close(reason);
  }

  private async call<Request, Reply>(
    route: PublicRoute,
    codec: RouteCodec<Request, Reply>,
    request: Request,
    timeoutMs = TIMEOUT_MS[route],
  ): Promise<Reply> {
    await this.options.throttle.take(this.address, route);
    const payload = await this.options.connection.request(
      routeId(route),
      codec.encodeRequest(request),
      { timeoutMs, maxReplyBytes: MAX_REPLY_BYTES[route] },
    );
    try {
      return codec.decodeReply(payload);
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      throw new MalformedAnswerError(
        this.address,
        `${route} from ${this.address}: ${error.message}`,
      );
    }
  }
}
