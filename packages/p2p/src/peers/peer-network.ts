import type { Logger } from '@lni/kernel';
import type { ChainPort } from '../chain-port.js';
import { HandshakeError, MalformedAnswerError } from '../errors.js';
import { normaliseIp } from '../limits/ip-matcher.js';
import { checkVersion } from '../protocol/handshake.js';
import { statusResponseSchema, type StatusResponse } from '../protocol/messages.js';
import { PeerClient } from './peer-client.js';
import { peerKey, type PeerObservation } from './peer.js';
import type { PeerRepository } from './peer-repository.js';

export interface PeerNetworkDependencies {
  readonly chain: ChainPort;
  readonly peers: PeerRepository;
  readonly logger: Logger;
  readonly version: string;
  readonly host: string;
  /** The port this node listens on, known only once the server started. */
  readonly listeningPort: () => number;
  readonly requestTimeoutMs: number;
}

export type ConnectOutcome = 'added' | 'updated' | 'self' | 'banned' | 'full' | 'untrusted';

/**
 * The node's outgoing connections: dials peers and checks their status (network, version, the
 * ledger's verification hook) before trusting them; a connection that closes drops its peer.
 */
export class PeerNetwork {
  private readonly clients = new Map<string, PeerClient>();
  private readonly dialling = new Map<string, Promise<ConnectOutcome>>();
  constructor(private readonly deps: PeerNetworkDependencies) {}

  /** Open connections to trusted peers, for discovery, sync and broadcast. */
  connected(): PeerClient[] {
    return [...this.clients.values()];
  }

  /** The open connection to a peer, for the messages of sync and broadcast. */
  client(ip: string, port: number): PeerClient | undefined {
    return this.clients.get(peerKey(normaliseIp(ip), port));
  }

  get connectedCount(): number {
    return this.clients.size;
  }

  /** Dials a peer once at a time; resolves with what became of it, rejects when it failed. */
  connect(ipAddress: string, port: number): Promise<ConnectOutcome> {
    const ip = normaliseIp(ipAddress);
    const key = peerKey(ip, port);
    const pending = this.dialling.get(key);
    if (pending) return pending;
    const attempt = this.dial(ip, port).finally(() => this.dialling.delete(key));
    this.dialling.set(key, attempt);
    return attempt;
  }

  /** Refreshes height and latency of every connected peer; a peer that fails is dropped. */
  async refresh(): Promise<void> {
    await Promise.all(
      [...this.clients.values()].map(async (client) => {
        const { ip, port } = client;
        try {
          if ((await this.admit(client, ip, port)) !== 'untrusted') return;
        } catch (error) {
          this.reportFailure(client, error);
        }
        this.clients.delete(client.address);
        this.deps.peers.remove(ip, port, 'status check failed');
        await client.disconnect();
      }),
    );
  }

  async disconnectAll(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(clients.map((client) => client.disconnect()));
  }

  /** Drops our connections to a banned IP. */
  async disconnectIp(ip: string): Promise<void> {
    const matching = [...this.clients.values()].filter((client) => client.ip === ip);
    for (const client of matching) this.clients.delete(client.address);
    await Promise.allSettled(matching.map((client) => client.disconnect()));
  }

  isSelf(ipAddress: string, port: number): boolean {
    const ip = normaliseIp(ipAddress);
    if (port !== this.deps.listeningPort()) return false;
    return ip === this.deps.host || ip === '::1' || ip.startsWith('127.');
  }

  private async dial(ip: string, port: number): Promise<ConnectOutcome> {
    if (this.isSelf(ip, port)) return 'self';
    if (this.deps.peers.isBanned(ip)) return 'banned';
    const existing = this.clients.get(peerKey(ip, port));
    if (existing?.isOpen) return this.admit(existing, ip, port);
    if (this.deps.peers.isFull) return 'full';

    const client: PeerClient = new PeerClient({
      ip,
      port,
      timeoutMs: this.deps.requestTimeoutMs,
      handshake: {
        nethash: this.deps.chain.network.nethash,
        version: this.deps.version,
        port: this.deps.listeningPort(),
      },
      onClose: () => {
        if (this.clients.get(peerKey(ip, port)) !== client) return;
        this.clients.delete(peerKey(ip, port));
        this.deps.peers.remove(ip, port, 'disconnected');
      },
    });
    await client.connect();
    try {
      const outcome = await this.admit(client, ip, port);
      if (outcome === 'added' || outcome === 'updated') {
        this.clients.set(peerKey(ip, port), client);
      } else {
        await client.disconnect();
      }
      return outcome;
    } catch (error) {
      await client.disconnect();
      this.reportFailure(client, error);
      throw error;
    }
  }

  /** Asks for the peer's status and records it when the peer is on our network and chain. */
  private async admit(client: PeerClient, ip: string, port: number): Promise<ConnectOutcome> {
    const { status, observation } = await this.timedStatus(client);
    if (status.network.nethash !== this.deps.chain.network.nethash) {
      throw new HandshakeError(
        `peer ${client.address} is on another network (${status.network.name})`,
      );
    }
    const incompatible = checkVersion(status.version, this.deps.version);
    if (incompatible) throw new HandshakeError(`peer ${client.address}: ${incompatible}`);
    const verdict = await this.deps.chain.verifyPeer?.(
      { ip, port },
      { height: status.height, header: status.header },
    );
    if (verdict && !verdict.trusted) {
      this.deps.logger.info({ ip, port, reason: verdict.reason }, 'Peer not trusted');
      this.deps.peers.remove(ip, port, `not trusted: ${verdict.reason}`);
      return 'untrusted';
    }
    return this.deps.peers.upsert(ip, port, observation);
  }

  /** Asks a connected peer for its status and keeps what it says (height, latency) for the API. */
  async status(client: PeerClient): Promise<StatusResponse> {
    const { status, observation } = await this.timedStatus(client);
    this.deps.peers.refresh(client.ip, client.port, observation);
    return status;
  }

  /** A peer's status, and what the repository keeps of it (with the round trip's latency). */
  private async timedStatus(
    client: PeerClient,
  ): Promise<{ status: StatusResponse; observation: PeerObservation }> {
    const started = performance.now();
    const status = await client.request('getStatus', {}, statusResponseSchema);
    const latency = Math.round(performance.now() - started);
    return {
      status,
      observation: { version: status.version, height: status.height, latency, ports: status.ports },
    };
  }

  /** Logs a failed request; a peer answering with garbage is penalised like one sending garbage. */
  reportFailure(client: PeerClient, error: unknown): void {
    const { ip, port } = client;
    if (error instanceof MalformedAnswerError) {
      this.deps.peers.penalise(ip, 'malformedMessage', error.message);
    }
    this.deps.logger.debug({ ip, port, err: error }, 'Peer request failed');
  }
}
