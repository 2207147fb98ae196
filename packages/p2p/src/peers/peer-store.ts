/**
 * Where peers and penalties outlive the process. The database plugin provides one as
 * `peerStorage`; without it (tests, a node without storage) they live in memory only.
 */
export interface PeerStore {
  load(): Promise<{ readonly peers: StoredPeer[]; readonly penalties: StoredPenalty[] }>;
  savePeer(peer: StoredPeer): Promise<void>;
  removePeer(ip: string, port: number): Promise<void>;
  savePenalty(penalty: StoredPenalty): Promise<void>;
  removePenalty(ip: string): Promise<void>;
}

/** A peer that was verified once: dialled again after a restart or a lost connection. */
export interface StoredPeer {
  readonly ip: string;
  readonly port: number;
  readonly version: string;
  readonly height: number;
  readonly lastSeen: Date;
}

export interface StoredPenalty {
  readonly ip: string;
  readonly score: number;
  readonly lastAt: Date;
  readonly bannedUntil: Date | null;
  readonly reason: string;
}
