/** A connected peer as GET /api/peers shows it. */
export interface PeerSummary {
  readonly ip: string;
  readonly port: number;
  readonly version: string;
  readonly height: number;
  readonly latency: number;
  readonly ports: Readonly<Record<string, number>>;
}

/** An IP banned for misbehaviour, until when (ISO time), and why. */
export interface PeerBan {
  readonly ip: string;
  readonly bannedUntil: string;
  readonly reason: string;
}

/** The node's peers as other plugins read them; registered by p2p as `peers`. */
export interface PeerReader {
  list(): readonly PeerSummary[];
  bans(): readonly PeerBan[];
}

/** The P2P server's listening socket; registered by p2p as `p2pListener`. */
export interface P2PListener {
  /** The port the server listens on (the one bound when the option was 0). */
  readonly port: number;
}
