import type { BlockHeader } from '@lni/crypto';

/** What the node learned about a peer from its last status. */
export interface PeerObservation {
  readonly version: string;
  readonly height: number;
  /** Round trip of the last getStatus, in milliseconds. */
  readonly latency: number;
  /** Public ports of the peer's services by package name (`@arkecosystem/core-api`: 4003). */
  readonly ports: Readonly<Record<string, number>>;
  readonly header: BlockHeader;
  readonly forgingAllowed: boolean;
  readonly currentSlot: number;
  /** The peer's chain left ours below both tips (ARK's `forked` verification result). */
  readonly forked: boolean;
}

/** A peer as the read API shows it (`GET /api/peers`). */
export interface PeerView {
  readonly ip: string;
  readonly port: number;
  readonly version: string;
  readonly height: number;
  readonly latency: number;
  readonly ports: Readonly<Record<string, number>>;
  readonly score: number;
  /** ISO time until which the peer's IP is banned; undefined when not banned. */
  readonly bannedUntil: string | undefined;
  readonly lastSeen: string;
}

export const peerKey = (ip: string, port: number): string =>
  ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
