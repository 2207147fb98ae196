import type { PeerReader } from '../contracts/peers.js';
import type { EventBus, Logger } from '@lni/kernel';
import { peerKey, type PeerObservation, type PeerView } from './peer.js';
import type { PeerStore, StoredPeer } from './peer-store.js';
import type { Misbehaviour, PenaltyBox, PenaltyState } from './penalty-box.js';
import { subnetOf } from './same-subnet.js';

export interface PeerRepositoryDependencies {
  readonly penalties: PenaltyBox;
  readonly maxPeers: number;
  /** New peers refused once this many peers share their IPv4 /24 (ARK's maxSameSubnetPeers). */
  readonly maxSameSubnetPeers: number;
  readonly events: EventBus;
  readonly logger: Logger;
  /** Known peers not seen for this long are forgotten (no longer dialled again). */
  readonly forgetAfterMs?: number;
  readonly now?: () => number;
}

export interface PeerRecord extends PeerObservation {
  readonly ip: string;
  readonly port: number;
  readonly lastSeen: number;
}

export type AddResult = 'added' | 'updated' | 'full' | 'subnet' | 'banned';

const DAY_MS = 24 * 60 * 60 * 1000;
const STORE_EVERY_MS = 60_000;

/**
 * The peers this node is connected to and trusts, with what it last learned of each; the peers
 * it knew (dialled again after a loss or a restart); and the penalties of every IP that
 * misbehaved. With a PeerStore, known peers and penalties survive a restart.
 */
export class PeerRepository implements PeerReader {
  private readonly peers = new Map<string, PeerRecord>();
  private readonly known = new Map<string, StoredPeer>();
  private readonly now: () => number;
  private store: PeerStore | undefined;
  /** Store writes in order, one at a time; a failure is logged, never thrown at callers. */
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PeerRepositoryDependencies) {
    this.now = deps.now ?? Date.now;
    deps.penalties.onBan((ip) => this.removeIp(ip, 'banned'));
  }

  /** Loads what an earlier run kept, and keeps every later change in `store`. */
  async attachStore(store: PeerStore): Promise<void> {
    const { peers, penalties } = await store.load();
    const oldest = this.now() - (this.deps.forgetAfterMs ?? DAY_MS);
    for (const peer of peers) {
      if (peer.lastSeen.getTime() >= oldest) this.known.set(peerKey(peer.ip, peer.port), peer);
    }
    this.store = store;
    this.deps.penalties.restore(
      penalties.map((penalty) => ({
        ip: penalty.ip,
        score: penalty.score,
        lastAt: penalty.lastAt.getTime(),
        bannedUntil: penalty.bannedUntil?.getTime(),
        reason: penalty.reason,
      })),
    );
    this.deps.logger.info(
      { peers: this.known.size, bans: this.bans().length },
      'Known peers and bans restored',
    );
  }

  /** Persists a change of an IP's standing (the penalty box tells us). */
  penaltyChanged(ip: string, state: PenaltyState | undefined): void {
    this.write((store) =>
      state
        ? store.savePenalty({
            ip,
            score: state.score,
            lastAt: new Date(state.lastAt),
            bannedUntil: state.bannedUntil === undefined ? null : new Date(state.bannedUntil),
            reason: state.reason,
          })
        : store.removePenalty(ip),
    );
  }

  get size(): number {
    return this.peers.size;
  }

  get isFull(): boolean {
    return this.peers.size >= this.deps.maxPeers;
  }

  /**
   * Whether a new peer at `ip` would exceed `maxSameSubnetPeers`: so many peers already share its
   * IPv4 /24 (one IP on several ports counts once per port). IPv6 and loopback never do.
   */
  subnetIsFull(ip: string): boolean {
    const subnet = subnetOf(ip);
    if (subnet === undefined) return false;
    let sharing = 0;
    for (const record of this.peers.values()) if (subnetOf(record.ip) === subnet) sharing += 1;
    return sharing >= this.deps.maxSameSubnetPeers;
  }

  /**
   * Adds or refreshes a peer; a new one is refused when the cap is reached, its /24 holds
   * `maxSameSubnetPeers` already (seeds excepted, as in ARK), or its IP is banned.
   */
  upsert(
    ip: string,
    port: number,
    observation: PeerObservation,
    { seed = false }: { readonly seed?: boolean } = {},
  ): AddResult {
    if (this.deps.penalties.isBanned(ip)) return 'banned';
    const key = peerKey(ip, port);
    const isNew = !this.peers.has(key);
    if (isNew && this.isFull) return 'full';
    if (isNew && !seed && this.subnetIsFull(ip)) return 'subnet';
    this.record(ip, port, observation);
    if (isNew) {
      this.deps.logger.info({ ip, port, height: observation.height }, 'Peer added');
      this.deps.events.emit('peer.added', { ip, port });
    }
    return isNew ? 'added' : 'updated';
  }

  /** Records what a connected peer answered later (height, latency); others are not added. */
  refresh(ip: string, port: number, observation: PeerObservation): void {
    if (this.peers.has(peerKey(ip, port))) this.record(ip, port, observation);
  }

  has(ip: string, port: number): boolean {
    return this.peers.has(peerKey(ip, port));
  }

  /** A connection was lost or a check failed: no longer a peer, still one to dial again. */
  remove(ip: string, port: number, reason: string): boolean {
    const removed = this.peers.delete(peerKey(ip, port));
    if (removed) {
      this.deps.logger.info({ ip, port, reason }, 'Peer removed');
      this.deps.events.emit('peer.removed', { ip, port, reason });
    }
    return removed;
  }

  /** Not one of ours (another network, a chain we refuse): removed and never dialled again. */
  forget(ip: string, port: number, reason: string): void {
    this.remove(ip, port, reason);
    if (this.known.delete(peerKey(ip, port))) this.write((store) => store.removePeer(ip, port));
  }

  /** Peers verified once and not connected now, most recently seen first: to dial again. */
  lost(): StoredPeer[] {
    return [...this.known.entries()]
      .filter(([key]) => !this.peers.has(key))
      .map(([, peer]) => peer)
      .sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime());
  }

  /** Connected peers with their last status, for sync and the network state. */
  records(): readonly PeerRecord[] {
    return [...this.peers.values()];
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

  /** An operator's ban of `ip` until `until` (epoch ms); its connections are dropped. */
  ban(ip: string, until: number, reason: string): void {
    this.deps.penalties.ban(ip, until, reason);
  }

  /** Lifts the ban of `ip`; false when it was not banned. */
  unban(ip: string): boolean {
    return this.deps.penalties.unban(ip);
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

  /** Waits until every change so far is stored (a clean stop, tests). */
  async flush(): Promise<void> {
    await this.writes;
  }

  private record(ip: string, port: number, observation: PeerObservation): void {
    const lastSeen = this.now();
    const key = peerKey(ip, port);
    this.peers.set(key, { ip, port, ...observation, lastSeen });
    const before = this.known.get(key);
    // Status polls come every few seconds; the store needs a peer's address, not every poll.
    const fresh = before && before.lastSeen.getTime() > lastSeen - STORE_EVERY_MS;
    if (fresh && before.version === observation.version) return;
    const stored: StoredPeer = {
      ip,
      port,
      version: observation.version,
      height: observation.height,
      lastSeen: new Date(lastSeen),
    };
    this.known.set(key, stored);
    this.write((store) => store.savePeer(stored));
  }

  private write(change: (store: PeerStore) => Promise<void>): void {
    const store = this.store;
    if (!store) return;
    this.writes = this.writes.then(() =>
      change(store).catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, 'Could not store a peer change'),
      ),
    );
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
