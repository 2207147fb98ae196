import type { DatabaseConnection } from '@lni/database/contracts';
import type { PeerStore, StoredPenalty, StoredPeer } from '../peers/peer-store.js';

export interface PeerStorageDeps {
  readonly database: DatabaseConnection;
}

interface PeerRow {
  ip: string;
  port: number;
  version: string;
  height: string;
  last_seen: Date | string;
}

interface PenaltyRow {
  ip: string;
  score: number;
  last_at: Date | string;
  banned_until: Date | string | null;
  reason: string;
}

/** The p2p plugin's PeerStore on the node's database (its own tables, see p2pSchema). */
export class PeerStorage implements PeerStore {
  private readonly database: DatabaseConnection;

  constructor({ database }: PeerStorageDeps) {
    this.database = database;
  }

  async load(): Promise<{ peers: StoredPeer[]; penalties: StoredPenalty[] }> {
    const manager = this.database.manager;
    const [peers, penalties] = await Promise.all([
      manager.query('SELECT ip, port, version, height, last_seen FROM peers') as Promise<PeerRow[]>,
      manager.query(
        'SELECT ip, score, last_at, banned_until, reason FROM peer_penalties',
      ) as Promise<PenaltyRow[]>,
    ]);
    return {
      peers: peers.map((row) => ({
        ip: row.ip,
        port: Number(row.port),
        version: row.version,
        height: Number(row.height),
        lastSeen: new Date(row.last_seen),
      })),
      penalties: penalties.map((row) => ({
        ip: row.ip,
        score: Number(row.score),
        lastAt: new Date(row.last_at),
        bannedUntil: row.banned_until === null ? null : new Date(row.banned_until),
        reason: row.reason,
      })),
    };
  }

  async savePeer(peer: StoredPeer): Promise<void> {
    await this.database.manager.query(
      `INSERT INTO peers (ip, port, version, height, last_seen) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (ip, port) DO UPDATE
       SET version = excluded.version, height = excluded.height, last_seen = excluded.last_seen`,
      [peer.ip, peer.port, peer.version.slice(0, 64), peer.height, peer.lastSeen],
    );
  }

  async removePeer(ip: string, port: number): Promise<void> {
    await this.database.manager.query('DELETE FROM peers WHERE ip = $1 AND port = $2', [ip, port]);
  }

  async savePenalty(penalty: StoredPenalty): Promise<void> {
    await this.database.manager.query(
      `INSERT INTO peer_penalties (ip, score, last_at, banned_until, reason)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (ip) DO UPDATE SET score = excluded.score, last_at = excluded.last_at,
         banned_until = excluded.banned_until, reason = excluded.reason`,
      [penalty.ip, penalty.score, penalty.lastAt, penalty.bannedUntil, penalty.reason],
    );
  }

  async removePenalty(ip: string): Promise<void> {
    await this.database.manager.query('DELETE FROM peer_penalties WHERE ip = $1', [ip]);
  }
}
