import { type EventBus, type Logger, AddressRanges } from '@lni/kernel';
import type { Chain } from '@lni/state/contracts';
import type { P2POptions } from '../config.js';
import type { ForgingSource } from '@lni/state/contracts';
import { ConnectionGate } from '../limits/connection-gate.js';
import { MessageLimiter } from '../limits/message-limiter.js';
import type { PeerNetwork } from '../peers/peer-network.js';
import type { PeerRepository } from '../peers/peer-repository.js';
import type { VersionPolicy } from '../peers/version-policy.js';
import { SocketServer } from '../transport/socket-server.js';
import type { NetworkStateReply } from '../wire/internal-messages.js';
import type { PeerPlugin, RequestHeaders } from '../wire/messages.js';
import { Dispatcher, type RequestResult } from './dispatcher.js';
import { InternalHandlers } from './internal-handlers.js';
import { PublicHandlers, type MessageHooks } from './public-handlers.js';

export interface P2PServerDependencies {
  readonly p2pOptions: P2POptions;
  readonly chain: Chain;
  readonly peerRepository: PeerRepository;
  readonly peerNetwork: PeerNetwork;
  readonly versions: VersionPolicy;
  readonly logger: Logger;
  readonly events: EventBus;
  readonly forging: () => ForgingSource | undefined;
  readonly networkState: () => Promise<NetworkStateReply>;
  readonly wakeSync: () => void;
  /** This node's public services (its API) by package name, for getStatus. */
  readonly services: () => Readonly<Record<string, PeerPlugin>>;
  readonly hooks?: MessageHooks;
  readonly onResult?: (route: string, result: RequestResult) => void;
}

/**
 * An address that failed to dial back is not tried again on its next request before this, as
 * ARK spaces its own connections to one IP 10 s apart. (A peer answering "not ready" while it
 * boots is waited for within the dial, on its socket.)
 */
const DIAL_BACK_COOLDOWN_MS = 10_000;
const DIAL_BACK_MEMORY = 10_000;

/**
 * The P2P server in ARK Core 3.x's dialect. Connection limits act on TCP sockets, the protocol
 * on websocket frames, and the dispatcher on each request; a peer that calls us is dialled back
 * (on the port its headers name, else the network's) to be verified and added, as ARK does.
 */
export class P2PServer {
  readonly gate: ConnectionGate;
  private readonly sockets: SocketServer;
  private readonly dialledBack = new Map<string, number>();
  private stopBanWatch: (() => void) | undefined;

  constructor(private readonly deps: P2PServerDependencies) {
    const { p2pOptions, peerRepository, logger } = deps;
    const publicHandlers = new PublicHandlers({
      chain: deps.chain,
      peers: peerRepository,
      version: p2pOptions.version,
      services: deps.services,
      maxTransactionsPerRequest: p2pOptions.maxTransactionsPerRequest,
      maxBytesPerReply: p2pOptions.sync.maxBytesPerReply,
      hooks: deps.hooks ?? {},
      logger,
    });
    const internalHandlers = new InternalHandlers({
      forging: deps.forging,
      networkState: deps.networkState,
      wakeSync: deps.wakeSync,
      events: deps.events,
      logger,
    });
    const dispatcher = new Dispatcher({
      peers: peerRepository,
      limiter: new MessageLimiter(p2pOptions.rateLimits),
      remoteAccess: new AddressRanges(p2pOptions.remoteAccess),
      versions: deps.versions,
      publicHandlers,
      internalHandlers,
      onPeerRequest: (ip, headers) => this.dialBack(ip, headers),
      networkPort: () => this.networkPort,
      ...(deps.onResult && { onResult: deps.onResult }),
      logger,
    });
    this.sockets = new SocketServer({
      host: p2pOptions.host,
      port: p2pOptions.port,
      logger,
      dispatch: (request) => dispatcher.dispatch(request),
      onViolation: (ip, reason) => peerRepository.penalise(ip, 'malformedMessage', reason),
      helloTimeoutMs: p2pOptions.requestTimeoutMs,
    });
    this.gate = new ConnectionGate({
      limits: p2pOptions.connections,
      isBanned: (ip) => peerRepository.isBanned(ip),
      logger,
    });
  }

  /** The port listened on (the real one when configured with 0). */
  get port(): number {
    return this.sockets.port;
  }

  get uri(): string {
    return `ws://${this.deps.p2pOptions.host}:${this.port}`;
  }

  /** The network's P2P port: the configured one (the real one when configured with 0). */
  get networkPort(): number {
    return this.deps.p2pOptions.port === 0 ? this.port : this.deps.p2pOptions.port;
  }

  /** Open inbound websocket connections. */
  get connections(): number {
    return this.sockets.size;
  }

  async start(): Promise<void> {
    this.gate.attach(this.sockets.http);
    this.stopBanWatch = this.deps.peerRepository.onBan((ip) => {
      this.sockets.dropIp(ip);
      this.deps.peerNetwork.disconnectIp(ip);
    });
    await this.sockets.listen();
    this.deps.logger.info({ uri: this.uri }, 'P2P server listening');
  }

  async stop(): Promise<void> {
    this.stopBanWatch?.();
    this.stopBanWatch = undefined;
    await this.sockets.close();
  }

  /** ARK's accept-peer step: a stranger that calls a public route is dialled back. */
  private dialBack(ip: string, headers: RequestHeaders | undefined): void {
    const { peerNetwork, peerRepository, logger } = this.deps;
    const port = headers?.port ?? this.networkPort;
    if (headers === undefined || port === 0) return; // a forger: it listens nowhere
    if (
      peerRepository.has(ip, port) ||
      peerRepository.isFull ||
      peerRepository.subnetIsFull(ip) ||
      peerNetwork.isSelf(ip, port)
    ) {
      return;
    }
    if (peerNetwork.isDialling(ip, port)) return;
    const key = `${ip} ${port}`;
    const now = Date.now();
    if ((this.dialledBack.get(key) ?? 0) > now - DIAL_BACK_COOLDOWN_MS) return;
    if (this.dialledBack.size >= DIAL_BACK_MEMORY) this.dialledBack.clear();
    this.dialledBack.set(key, now);
    peerNetwork.connect(ip, port).then(
      (outcome) => logger.debug({ ip, port, outcome }, 'Dialled back a peer that called us'),
      (error: unknown) =>
        logger.info({ ip, port, reason: (error as Error).message }, 'Cannot dial back a peer'),
    );
  }
}
