/** A peer as the read API shows it (the future `GET /api/peers`). */
export interface PeerView {
  readonly ip: string;
  readonly port: number;
  readonly version: string;
  readonly height: number;
  /** Round trip of the last getStatus, in milliseconds. */
  readonly latency: number;
  /** Public ports of the peer's services, as it announces them (`{ api: 4003 }`). */
  readonly ports: Readonly<Record<string, number>>;
  readonly score: number;
  /** ISO time until which the peer's IP is banned; undefined when not banned. */
  readonly bannedUntil: string | undefined;
  readonly lastSeen: string;
}

/** What the node learned about a peer from its status. */
export interface PeerObservation {
  readonly version: string;
  readonly height: number;
  readonly latency: number;
  readonly ports: Readonly<Record<string, number>>;
}

export const peerKey = (ip: string, port: number): string => `${ip}:${port}`;
