import type { Logger, AddressRanges } from '@lni/kernel';
import type { PeerAddress } from '@lni/state/contracts';
import type { MessageLimiter } from '../limits/message-limiter.js';
import type { PeerRepository } from '../peers/peer-repository.js';
import type { VersionPolicy } from '../peers/version-policy.js';
import { RouteError } from '../transport/route-error.js';
import type { InboundRequest } from '../transport/server-connection.js';
import {
  getBlocksCodec,
  getCommonBlocksCodec,
  getPeersCodec,
  getStatusCodec,
  postBlockCodec,
  postTransactionsCodec,
  type RouteCodec,
} from '../wire/codecs.js';
import { parseJson } from '../wire/internal-messages.js';
import type { RequestHeaders } from '../wire/messages.js';
import {
  GRACEFUL_ERROR_STATUS,
  isInternalRoute,
  MAX_REQUEST_BYTES,
  routeOfPath,
  type PublicRoute,
  type RouteName,
} from '../wire/routes.js';
import { WireError } from '../wire/wire-error.js';
import type { InternalHandlers } from './internal-handlers.js';
import type { PublicHandlers } from './public-handlers.js';

/** How a request ended, for metrics and tests. */
export type RequestResult = 'ok' | 'refused' | 'malformed' | 'rateLimited' | 'failed';

export interface DispatcherDeps {
  readonly peers: PeerRepository;
  readonly limiter: MessageLimiter;
  readonly remoteAccess: AddressRanges;
  readonly versions: VersionPolicy;
  readonly publicHandlers: PublicHandlers;
  readonly internalHandlers: InternalHandlers;
  /** A public request arrived: ARK dials the sender back to verify and add it. */
  readonly onPeerRequest: (ip: string, headers: RequestHeaders | undefined) => void;
  readonly onResult?: (route: string, result: RequestResult) => void;
  /** The network's P2P port, where a peer that names no port of its own listens (ARK's rule). */
  readonly networkPort: () => number;
  readonly logger: Logger;
}

/** A request decoded by its route's codec, holding its handler until the checks pass. */
interface DecodedRequest {
  readonly headers?: RequestHeaders;
  /** Runs the route's handler and encodes its reply. */
  answer(from: PeerAddress): Promise<Buffer>;
}

interface PublicRouteEntry {
  decode(bytes: Uint8Array): DecodedRequest;
}

/** A route's codec and handler, typed together so a request meets only its own handler. */
function publicRoute<Request extends { readonly headers?: RequestHeaders }, Reply>(
  codec: RouteCodec<Request, Reply>,
  handle: (request: Request, from: PeerAddress) => Reply | Promise<Reply>,
): PublicRouteEntry {
  return {
    decode(bytes) {
      const request = codec.decodeRequest(bytes);
      return {
        ...(request.headers && { headers: request.headers }),
        answer: async (from) => codec.encodeReply(await handle(request, from)),
      };
    },
  };
}

/**
 * Takes a request from the socket to its handler and back: route, bans, remote access, rate
 * limits, size, decoding, version; then the answer, encoded. Every refusal is a RouteError,
 * which closes the socket (ARK's rule), and misbehaviour costs the sender penalty points.
 */
export class Dispatcher {
  private readonly routes: Readonly<Record<PublicRoute, PublicRouteEntry>>;

  constructor(private readonly deps: DispatcherDeps) {
    const handlers = deps.publicHandlers;
    this.routes = {
      getStatus: publicRoute(getStatusCodec, () => handlers.status()),
      getPeers: publicRoute(getPeersCodec, (_request, from) => handlers.peers(from)),
      getCommonBlocks: publicRoute(getCommonBlocksCodec, (request) =>
        handlers.commonBlocks(request),
      ),
      getBlocks: publicRoute(getBlocksCodec, (request) => handlers.blocks(request)),
      postBlock: publicRoute(postBlockCodec, (request, from) => handlers.postBlock(request, from)),
      postTransactions: publicRoute(postTransactionsCodec, (request, from) =>
        handlers.postTransactions(request, from),
      ),
    };
  }

  async dispatch({ path, payload, ip }: InboundRequest): Promise<Buffer> {
    const route = routeOfPath(path);
    try {
      if (route === undefined) {
        this.misbehaved(ip, 'malformedMessage', `unknown route ${path.slice(0, 100)}`);
        throw new RouteError(404, `no route ${path.slice(0, 100)}`);
      }
      const reply = await this.checked(route, payload, ip);
      this.deps.onResult?.(route, 'ok');
      return reply;
    } catch (error) {
      this.deps.onResult?.(route ?? 'unknown', resultOf(error));
      if (!(error instanceof RouteError)) {
        this.deps.logger.error({ route, ip, err: error }, 'P2P request failed');
        throw new RouteError(500, 'internal error');
      }
      if (error.statusCode !== GRACEFUL_ERROR_STATUS) {
        this.deps.logger.debug(
          { route, ip, status: error.statusCode, reason: error.message },
          'P2P request refused',
        );
      }
      throw error;
    }
  }

  private async checked(route: RouteName, payload: Buffer, ip: string): Promise<Buffer> {
    const { peers, limiter, remoteAccess } = this.deps;
    if (peers.isBanned(ip)) throw new RouteError(403, `${ip} is banned`);
    if (isInternalRoute(route) && !remoteAccess.has(ip)) {
      this.misbehaved(ip, 'malformedMessage', `internal route ${route} from outside remoteAccess`);
      throw new RouteError(403, `${route} is internal: ${ip} is not in remoteAccess`);
    }
    const exceeded = await limiter.consume(ip, route);
    if (exceeded) {
      this.misbehaved(ip, 'rateLimited', `rate limit of ${exceeded.limit}`);
      throw new RouteError(429, `rate limit of ${exceeded.limit} exceeded for ${ip}`);
    }
    if (payload.byteLength > MAX_REQUEST_BYTES[route]) {
      this.misbehaved(ip, 'malformedMessage', `${route} of ${payload.byteLength} bytes`);
      throw new RouteError(413, `${route} payload above ${MAX_REQUEST_BYTES[route]} bytes`);
    }
    if (isInternalRoute(route)) {
      const request = parseJson(payload);
      if (request === undefined) throw new RouteError(400, `${route}: the payload is not JSON`);
      return Buffer.from(JSON.stringify(await this.deps.internalHandlers.handle(route, request)));
    }
    const entry = this.routes[route];
    let request: DecodedRequest;
    try {
      request = entry.decode(payload);
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      this.misbehaved(ip, 'malformedMessage', `${route}: ${error.message}`);
      throw new RouteError(400, `${route}: ${error.message}`);
    }
    const version = request.headers?.version;
    // ARK refuses requests from versions it does not accept; so do we, without a penalty.
    const refusal = version === undefined ? undefined : this.deps.versions.refuse(version);
    if (refusal) throw new RouteError(400, `${route}: ${refusal}`);
    this.deps.onPeerRequest(ip, request.headers);
    // An LNI peer names its listening port, so one IP may run several nodes (test networks);
    // an ARK peer listens on the network's port.
    const port = request.headers?.port ?? this.deps.networkPort();
    return request.answer({ ip, port });
  }

  private misbehaved(ip: string, kind: 'malformedMessage' | 'rateLimited', reason: string): void {
    this.deps.peers.penalise(ip, kind, reason);
  }
}

function resultOf(error: unknown): RequestResult {
  if (!(error instanceof RouteError)) return 'failed';
  if (error.statusCode === 429) return 'rateLimited';
  if (error.statusCode === 400 || error.statusCode === 404 || error.statusCode === 413) {
    return 'malformed';
  }
  return error.statusCode >= 500 ? 'failed' : 'refused';
}
