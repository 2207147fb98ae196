import { type Logger, canonicalAddress } from '@lni/kernel';
import type { Chain } from '@lni/state/contracts';
import { isNotReady, MalformedAnswerError, PeerResponseError } from '../errors.js';
import type { OutgoingThrottle } from '../limits/outgoing-throttle.js';
import { PeerConnection } from '../transport/peer-connection.js';
import type { StatusReply } from '../wire/messages.js';
import { PeerClient } from './peer-client.js';
import { peerKey, type PeerObservation } from './peer.js';
import type { PeerRepository } from './peer-repository.js';
import type { PeerVerifier } from './peer-verifier.js';

export interface PeerNetworkDependencies {
  readonly chain: Chain;
  readonly peers: PeerRepository;
  readonly verifier: PeerVerifier;
  readonly throttle: OutgoingThrottle;
  readonly logger: Logger;
  /** The version we announce in every request's headers. */
  readonly version: string;
  readonly host: string;
  /** The port this node listens on, known only once the server started. */
  readonly listeningPort: () => number;
  readonly connectTimeoutMs: number;
  /** How long the verification of a new peer may take (ARK: 60 s). */
  readonly verifyTimeoutMs: number;
  /** Requests in a row that fail before a peer is dropped (ARK's maxPeerSequentialErrors). */
  readonly maxSequentialErrors: number;
  /** A connection to a peer was lost; the caller may dial it again. */
  readonly onLost?: (ip: string, port: number) => void;
}

/** How soon a peer that is not ready is asked again: within ARK's getStatus limit (2 per 1 s). */
const NOT_READY_RETRY_MS = 1_000;

export type ConnectOutcome =
  'added' | 'updated' | 'self' | 'banned' | 'full' | 'subnet' | 'untrusted';

export interface ConnectOptions {
  /** A seed of peers.json: let in whatever its /24 holds (ARK's seeds are). */
  readonly seed?: boolean;
}

/**
 * The node's outgoing connections: dials a peer, verifies it as ARK does before trusting it,
 * and keeps one connection per peer for discovery, sync and broadcast. A connection that closes
 * drops its peer; so do too many failed requests in a row.
 */
export class PeerNetwork {
  private readonly clients = new Map<string, PeerClient>();
  private readonly dialling = new Map<string, Promise<ConnectOutcome>>();
  private readonly errors = new Map<string, number>();
  /** Dialled peers waited for while they answer "not ready": closed too when the node stops. */
  private readonly waitedFor = new Set<PeerClient>();

  constructor(private readonly deps: PeerNetworkDependencies) {}

  /** Open connections to trusted peers. */
  connected(): PeerClient[] {
    return [...this.clients.values()].filter((client) => client.isOpen);
  }

  client(ip: string, port: number): PeerClient | undefined {
    return this.clients.get(peerKey(canonicalAddress(ip), port));
  }

  get connectedCount(): number {
    return this.clients.size;
  }

  /** Dials a peer once at a time; resolves with what became of it, rejects when it failed. */
  connect(ipAddress: string, port: number, options: ConnectOptions = {}): Promise<ConnectOutcome> {
    const ip = canonicalAddress(ipAddress);
    const key = peerKey(ip, port);
    const pending = this.dialling.get(key);
    if (pending) return pending;
    const attempt = this.dial(ip, port, options).finally(() => this.dialling.delete(key));
    this.dialling.set(key, attempt);
    return attempt;
  }

  isDialling(ip: string, port: number): boolean {
    return this.dialling.has(peerKey(canonicalAddress(ip), port));
  }

  /** Asks every connected peer for its status; a peer no longer verified is dropped. */
  async refresh(): Promise<void> {
    await Promise.all(
      this.connected().map(async (client) => {
        try {
          await this.status(client);
        } catch (error) {
          this.reportFailure(client, error);
        }
      }),
    );
  }

  /** A peer's status, checked and kept (height, latency, forked) for the API and sync. */
  async status(client: PeerClient, timeoutMs?: number): Promise<StatusReply> {
    const started = performance.now();
    const status = await client.status(timeoutMs);
    const latency = Math.round(performance.now() - started);
    const refusal = this.deps.verifier.refuseConfig(status);
    if (refusal) {
      this.drop(client, refusal, true);
      throw new PeerResponseError(client.address, `${client.address}: ${refusal}`, {
        kind: 'status',
      });
    }
    this.deps.peers.refresh(
      client.ip,
      client.port,
      await this.observe(status, latency, await this.forkedAt(status)),
    );
    this.errors.delete(peerKey(client.ip, client.port));
    return status;
  }

  /**
   * The status of a peer, asked again on the same socket while it answers "not ready" (ARK does
   * until its blockchain has booted, and keeps the socket open). Dialling again instead would
   * wait out the cool-downs on both sides and spend the peer's budget of new connections per IP;
   * meanwhile every block broadcast would miss it.
   */
  private async readyStatus(
    client: PeerClient,
    deadline: number,
  ): Promise<{ status: StatusReply; latency: number }> {
    this.waitedFor.add(client);
    try {
      for (;;) {
        const started = performance.now();
        try {
          const status = await client.status();
          return { status, latency: Math.round(performance.now() - started) };
        } catch (error) {
          if (!isNotReady(error) || Date.now() + NOT_READY_RETRY_MS > deadline) throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, NOT_READY_RETRY_MS));
      }
    } finally {
      this.waitedFor.delete(client);
    }
  }

  async disconnectAll(): Promise<void> {
    const clients = [...this.clients.values(), ...this.waitedFor];
    this.clients.clear();
    for (const client of clients) client.close('the node is stopping');
  }

  /** Drops our connections to a banned IP. */
  disconnectIp(ip: string): void {
    for (const client of [...this.clients.values()]) {
      if (client.ip === ip) this.drop(client, 'banned', false);
    }
  }

  isSelf(ipAddress: string, port: number): boolean {
    const ip = canonicalAddress(ipAddress);
    if (port !== this.deps.listeningPort()) return false;
    return ip === this.deps.host || ip === '::1' || ip.startsWith('127.') || ip === '0.0.0.0';
  }

  /**
   * Counts a failed request: a peer answering garbage is penalised; a peer failing
   * `maxSequentialErrors` requests in a row (timeouts, dropped sockets) is disconnected.
   */
  reportFailure(client: PeerClient, error: unknown): void {
    const { ip, port } = client;
    if (error instanceof MalformedAnswerError) {
      this.deps.peers.penalise(ip, 'malformedMessage', error.message);
    }
    this.deps.logger.debug({ ip, port, err: error }, 'Peer request failed');
    const key = peerKey(ip, port);
    const count = (this.errors.get(key) ?? 0) + 1;
    this.errors.set(key, count);
    if (count >= this.deps.maxSequentialErrors || !client.isOpen) {
      this.drop(client, `${count} failed requests in a row`, false);
    }
  }

  private async dial(ip: string, port: number, options: ConnectOptions): Promise<ConnectOutcome> {
    if (this.isSelf(ip, port)) return 'self';
    if (this.deps.peers.isBanned(ip)) return 'banned';
    const key = peerKey(ip, port);
    const existing = this.clients.get(key);
    if (existing?.isOpen) return this.admit(existing, options);
    if (this.deps.peers.isFull) return 'full';
    // Checked again when it is admitted: others may have joined its /24 meanwhile.
    if (!options.seed && this.deps.peers.subnetIsFull(ip)) return 'subnet';
    const connection = await PeerConnection.open(`ws://${key}`, {
      address: key,
      timeoutMs: this.deps.connectTimeoutMs,
      onClose: (reason) => this.lost(ip, port, reason),
    });
    const client = new PeerClient({
      ip,
      port,
      connection,
      throttle: this.deps.throttle,
      headers: { version: this.deps.version, port: this.deps.listeningPort() },
    });
    try {
      const outcome = await this.admit(client, options);
      if (outcome === 'added' || outcome === 'updated') this.clients.set(key, client);
      else client.close(`not a peer: ${outcome}`);
      return outcome;
    } catch (error) {
      client.close('verification failed');
      this.reportFailure(client, error);
      throw error;
    }
  }

  /** Verifies the peer (network, version, chain) and records it when it is one of ours. */
  private async admit(client: PeerClient, options: ConnectOptions): Promise<ConnectOutcome> {
    const { ip, port } = client;
    const deadline = Date.now() + this.deps.verifyTimeoutMs;
    const { status, latency } = await this.readyStatus(client, deadline);
    const verification = await this.deps.verifier.verify(client, status, deadline);
    if (!verification.verified) {
      this.deps.logger.info({ ip, port, reason: verification.reason }, 'Peer not verified');
      this.deps.peers.forget(ip, port, `not verified: ${verification.reason}`);
      return 'untrusted';
    }
    return this.deps.peers.upsert(
      ip,
      port,
      await this.observe(status, latency, verification.forked),
      options,
    );
  }

  /** Whether a peer at or below our height holds another block than ours at its height. */
  private async forkedAt(status: StatusReply): Promise<boolean> {
    const { header } = status.state;
    if (header.height > this.deps.chain.status().height) return false;
    const [ours] = await this.deps.chain.blockIds([header.height]);
    return ours !== undefined && ours.id !== header.id;
  }

  private async observe(
    status: StatusReply,
    latency: number,
    forked: boolean,
  ): Promise<PeerObservation> {
    const ports: Record<string, number> = {};
    for (const [name, plugin] of Object.entries(status.config.plugins)) {
      if (plugin.enabled) ports[name] = plugin.port;
    }
    return {
      version: status.config.version,
      height: status.state.height,
      latency,
      ports,
      header: status.state.header,
      forgingAllowed: status.state.forgingAllowed,
      currentSlot: status.state.currentSlot,
      forked,
    };
  }

  private drop(client: PeerClient, reason: string, forget: boolean): void {
    const { ip, port } = client;
    if (this.clients.get(peerKey(ip, port)) === client) this.clients.delete(peerKey(ip, port));
    if (forget) this.deps.peers.forget(ip, port, reason);
    else this.deps.peers.remove(ip, port, reason);
    client.close(reason);
  }

  /** A connection closed: if it was the peer's current one, the peer is lost. */
  private lost(ip: string, port: number, reason: string): void {
    const key = peerKey(ip, port);
    const client = this.clients.get(key);
    if (!client || client.isOpen) return;
    this.clients.delete(key);
    this.errors.delete(key);
    this.deps.throttle.forget(key);
    this.deps.peers.remove(ip, port, reason);
    this.deps.onLost?.(ip, port);
  }
}
