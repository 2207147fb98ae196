import Boom from '@hapi/boom';
import Hapi, { type Lifecycle, type Request, type ResponseToolkit } from '@hapi/hapi';
import Nes from '@hapi/nes';
import type { Logger } from '@lni/kernel';
import type { ChainPort } from '../chain-port.js';
import type { ForgingPort, NetworkState } from '../forging/forging-port.js';
import type { P2POptions } from '../config.js';
import { ConnectionGate } from '../limits/connection-gate.js';
import { normaliseIp } from '../limits/ip-matcher.js';
import { MessageLimiter } from '../limits/message-limiter.js';
import { MESSAGE_NAMES, routeId, type MessageName } from '../protocol/message-names.js';
import { MAX_MESSAGE_BYTES } from '../protocol/messages.js';
import type { PeerNetwork } from '../peers/peer-network.js';
import type { PeerRepository } from '../peers/peer-repository.js';
import { HANDSHAKE_STRATEGY, peerCredentials, registerHandshakeAuth } from './handshake-auth.js';
import { messageRoutes, type MessageHooks } from './message-routes.js';

export interface P2PServerDependencies {
  readonly p2pOptions: P2POptions;
  readonly p2pChain: ChainPort;
  readonly peerRepository: PeerRepository;
  readonly peerNetwork: PeerNetwork;
  readonly logger: Logger;
  readonly forging: () => ForgingPort | undefined;
  readonly networkState: () => Promise<NetworkState>;
  readonly hooks?: MessageHooks;
}

const BAN_DROP_GRACE_MS = 200;
/** The largest message (a postBlock of the largest block) plus the nes envelope. */
const MAX_FRAME_BYTES = MAX_MESSAGE_BYTES.postBlock + 64 * 1024;

const messageOfRoute = new Map<string, MessageName>(
  MESSAGE_NAMES.map((name) => [routeId(name), name]),
);

/**
 * The P2P server: nes over hapi. Connection limits act on sockets, the handshake on the nes
 * hello, rate limits and bans on each message; malformed messages cost their sender points.
 */
export class P2PServer {
  readonly server: Hapi.Server;
  readonly gate: ConnectionGate;
  private readonly limiter: MessageLimiter;
  private stopBanWatch: (() => void) | undefined;

  constructor(private readonly deps: P2PServerDependencies) {
    const { p2pOptions, peerRepository, logger } = deps;
    this.server = Hapi.server({ host: p2pOptions.host, port: p2pOptions.port });
    this.gate = new ConnectionGate({
      limits: p2pOptions.connections,
      isBanned: (ip) => peerRepository.isBanned(ip),
      logger,
    });
    this.limiter = new MessageLimiter(p2pOptions.rateLimits);
  }

  /** The port listened on (the real one when configured with 0). */
  get port(): number {
    return this.server.info.port as number;
  }

  get uri(): string {
    return this.server.info.uri;
  }

  async start(): Promise<void> {
    const { p2pOptions, p2pChain, peerRepository, logger } = this.deps;
    this.gate.attach(this.server.listener);
    registerHandshakeAuth(
      this.server,
      () => ({ nethash: p2pChain.network.nethash, version: p2pOptions.version }),
      logger,
    );
    await this.server.register({
      plugin: Nes.plugin,
      options: {
        auth: { type: 'direct', route: HANDSHAKE_STRATEGY, timeout: p2pOptions.requestTimeoutMs },
        onConnection: (socket) => this.welcome(socket.info.remoteAddress, socket.auth.credentials),
      },
    });
    this.capFrameSize(MAX_FRAME_BYTES);
    this.server.ext('onRequest', (request, h) => this.refuseBanned(request, h));
    this.server.ext('onPreAuth', (request, h) => this.limitRate(request, h));
    this.server.ext('onPreResponse', (request, h) => this.penaliseMalformed(request, h));
    this.server.route(
      messageRoutes({
        chain: p2pChain,
        peers: peerRepository,
        version: p2pOptions.version,
        ports: p2pOptions.ports,
        remoteAccess: p2pOptions.remoteAccess,
        forging: this.deps.forging,
        networkState: this.deps.networkState,
        ...(this.deps.hooks && { hooks: this.deps.hooks }),
      }),
    );
    // The grace lets the answer that caused the ban (and says why) reach the peer first.
    this.stopBanWatch = peerRepository.onBan((ip) => {
      setTimeout(() => void this.dropIp(ip), BAN_DROP_GRACE_MS).unref();
    });
    await this.server.start();
    logger.info({ uri: this.server.info.uri }, 'P2P server listening');
  }

  async stop(): Promise<void> {
    this.stopBanWatch?.();
    this.stopBanWatch = undefined;
    await this.server.stop({ timeout: 2_000 });
  }

  /**
   * nes builds its ws server without `maxPayload`, so ws's 100 MiB default would let a peer
   * make us buffer that much before any route's payload limit applies. nes offers no option for
   * it: set it on the ws server nes keeps, and say so loudly if a nes release moves it.
   */
  private capFrameSize(bytes: number): void {
    const plugins = this.server.plugins as {
      nes?: { _listener?: { _wss?: { options?: { maxPayload?: number } } } };
    };
    const options = plugins.nes?._listener?._wss?.options;
    if (options) options.maxPayload = bytes;
    else this.deps.logger.warn({ bytes }, 'Cannot cap websocket frame size: nes internals changed');
  }

  /** A peer that passed the handshake: dial it back to learn its status and add it. */
  private welcome(remoteAddress: string, credentials: unknown): void {
    const ip = normaliseIp(remoteAddress);
    const { port, role } = peerCredentials(credentials);
    if (role === 'forger') return; // a forger listens nowhere: nothing to dial back
    const { peerNetwork, peerRepository, logger } = this.deps;
    if (peerRepository.has(ip, port) || peerRepository.isFull) return;
    peerNetwork.connect(ip, port).then(
      (outcome) => logger.debug({ ip, port, outcome }, 'Dialled back an incoming peer'),
      (error: unknown) =>
        logger.debug({ ip, port, err: error }, 'Cannot dial back an incoming peer'),
    );
  }

  private refuseBanned(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
    const ip = normaliseIp(request.info.remoteAddress);
    const { bannedUntil } = this.deps.peerRepository.standing(ip);
    if (bannedUntil) throw Boom.forbidden(`${ip} is banned until ${bannedUntil}`);
    return h.continue;
  }

  private async limitRate(request: Request, h: ResponseToolkit): Promise<Lifecycle.ReturnValue> {
    const message = messageOfRoute.get(request.route.settings.id ?? '');
    if (!message) return h.continue;
    const ip = normaliseIp(request.info.remoteAddress);
    const exceeded = await this.limiter.consume(ip, message);
    if (!exceeded) return h.continue;
    this.deps.peerRepository.penalise(ip, 'rateLimited', `rate limit of ${exceeded.limit}`);
    const error = Boom.tooManyRequests(`rate limit of ${exceeded.limit} exceeded for ${ip}`);
    error.output.headers['Retry-After'] = String(Math.ceil(exceeded.retryAfterMs / 1000));
    throw error;
  }

  private penaliseMalformed(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
    const { response } = request;
    if (!(response instanceof Error) || !Boom.isBoom(response)) return h.continue;
    const status = response.output.statusCode;
    if ((status === 400 || status === 413) && messageOfRoute.has(request.route.settings.id ?? '')) {
      const ip = normaliseIp(request.info.remoteAddress);
      this.deps.peerRepository.penalise(ip, 'malformedMessage', response.message);
    }
    return h.continue;
  }

  private async dropIp(ip: string): Promise<void> {
    const sockets: { disconnect(): Promise<void> }[] = [];
    await this.server.eachSocket((socket) => {
      if (normaliseIp(socket.info.remoteAddress) === ip) sockets.push(socket);
    });
    await Promise.allSettled([
      ...sockets.map((socket) => socket.disconnect()),
      this.deps.peerNetwork.disconnectIp(ip),
    ]);
  }
}
