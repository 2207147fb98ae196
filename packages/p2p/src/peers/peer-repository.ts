import type { EventBus, Logger } from '@lni/kernel';
import { peerKey, type PeerObservation, type PeerView } from './peer.js';
import type { Misbehaviour, PenaltyBox } from './penalty-box.js';

export interface PeerRepositoryDependencies {
  readonly penalties: PenaltyBox;
  readonly maxPeers: number;
  readonly events: EventBus;
  readonly logger: Logger;
  readonly now?: () => number;
}

interface PeerRecord extends PeerObservation {
  readonly ip: string;
  readonly port: number;
  readonly lastSeen: number;
}

export type AddResult = 'added' | 'updated' | 'full' | 'banned';

/**
 * The peers this node trusts, with what it last learned of each, and the penalties of every
 * IP that misbehaved. The typed read API (`list`, `get`) is what `GET /api/peers` shows.
 */
export class PeerRepository {
  private readonly peers = new Map<string, PeerRecord>();
  private readonly now: () => number;

  constructor(private readonly deps: PeerRepositoryDependencies) {
    this.now = deps.now ?? Date.now;
    deps.penalties.onBan((ip) => this.removeIp(ip, 'banned'));
  }

  get size(): number {
    return this.peers.size;
  }

  get isFull(): boolean {
    return this.peers.size >= this.deps.maxPeers;
  }

  /** Adds or refreshes a peer; a new one is refused when the cap is reached or its IP is banned. */
  upsert(ip: string, port: number, observation: PeerObservation): AddResult {
    if (this.deps.penalties.isBanned(ip)) return 'banned';
    const key = peerKey(ip, port);
    const known = this.peers.has(key);
    if (!known && this.isFull) return 'full';
    this.peers.set(key, { ip, port, ...observation, lastSeen: this.now() });
    if (!known) {
      this.deps.logger.info({ ip, port, height: observation.height }, 'Peer added');
      this.deps.events.emit('peer.added', { ip, port });
    }
    return known ? 'updated' : 'added';
  }

  /** Records what a known peer answered later (height, latency); unknown peers are not added. */
  refresh(ip: string, port: number, observation: PeerObservation): void {
    const key = peerKey(ip, port);
    if (this.peers.has(key))
      this.peers.set(key, { ip, port, ...observation, lastSeen: this.now() });
  }

  has(ip: string, port: number): boolean {
    return this.peers.has(peerKey(ip, port));
  }

  remove(ip: string, port: number, reason: string): boolean {
    const removed = this.peers.delete(peerKey(ip, port));
    if (removed) {
      this.deps.logger.info({ ip, port, reason }, 'Peer removed');
      this.deps.events.emit('peer.removed', { ip, port, reason });
    }
    return removed;
  }

  /** Every peer, highest chain first. */
  list(): PeerView[] {
    return [...this.peers.values()]
      .sort((a, b) => b.height - a.height || a.latency - b.latency)
      .map((record) => this.view(record));
  }

  /** The peer at `ip` (and `port`, when one IP runs several nodes). */
  get(ip: string, port?: number): PeerView | undefined {
    if (port !== undefined) {
      const record = this.peers.get(peerKey(ip, port));
      return record && this.view(record);
    }
    for (const record of this.peers.values()) if (record.ip === ip) return this.view(record);
    return undefined;
  }

  penalise(ip: string, kind: Misbehaviour, reason: string): boolean {
    return this.deps.penalties.penalise(ip, kind, reason);
  }

  /** Called with each new ban, so connections of the banned IP can be dropped. */
  onBan(listener: (ip: string, until: number) => void): () => void {
    return this.deps.penalties.onBan(listener);
  }

  isBanned(ip: string): boolean {
    return this.deps.penalties.isBanned(ip);
  }

  /** Penalty score and ban of any IP, a peer or not (an abusive client never becomes a peer). */
  standing(ip: string): { readonly score: number; readonly bannedUntil: string | undefined } {
    const record = this.deps.penalties.get(ip);
    return { score: record.score, bannedUntil: isoOrUndefined(record.bannedUntil) };
  }

  /** IPs banned now (peers or not), for the API and operators. */
  bans(): { readonly ip: string; readonly bannedUntil: string; readonly reason: string }[] {
    return this.deps.penalties
      .bans()
      .map((ban) => ({ ...ban, bannedUntil: new Date(ban.bannedUntil).toISOString() }));
  }

  private removeIp(ip: string, reason: string): void {
    for (const record of [...this.peers.values()]) {
      if (record.ip === ip) this.remove(record.ip, record.port, reason);
    }
  }

  private view(record: PeerRecord): PeerView {
    const standing = this.standing(record.ip);
    return {
      ip: record.ip,
      port: record.port,
      version: record.version,
      height: record.height,
      latency: record.latency,
      ports: record.ports,
      score: standing.score,
      bannedUntil: standing.bannedUntil,
      lastSeen: new Date(record.lastSeen).toISOString(),
    };
  }
}

function isoOrUndefined(epochMs: number | undefined): string | undefined {
  return epochMs === undefined ? undefined : new Date(epochMs).toISOString();
}
