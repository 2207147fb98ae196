import type { NetworkConfig } from '@lni/crypto';
import type { LastBlockView } from '../resources/ledger-views.js';

/** A peer as GET /api/peers shows it; the p2p plugin's peer repository provides these. */
export interface PeerSummary {
  readonly ip: string;
  readonly port: number;
  readonly version: string;
  readonly height: number;
  readonly latency: number;
  readonly ports: Readonly<Record<string, number>>;
}

/** An IP banned for misbehaviour, until when, and why. */
export interface PeerBan {
  readonly ip: string;
  readonly bannedUntil: string;
  readonly reason: string;
}

export interface PeerReader {
  list(): readonly PeerSummary[];
  bans?(): readonly PeerBan[];
}

/** Pool limits shown in /node/configuration as `transactionPool`. */
export interface PoolLimits {
  readonly maxTransactionsInPool: number;
  readonly maxTransactionsPerSender: number;
  readonly maxTransactionsPerRequest: number;
  readonly dynamicFees: { readonly enabled: boolean; readonly [key: string]: unknown };
}

/** Where the node routes read from; each is absent when its plugin does not run here. */
export interface NodeSources {
  readonly network: () => NetworkConfig | undefined;
  /** The last block; undefined when the ledger does not run here or has no block yet. */
  readonly lastBlock: () => LastBlockView | undefined;
  readonly peers: () => PeerReader | undefined;
  readonly poolLimits: () => PoolLimits | undefined;
  readonly ports: Readonly<Record<string, number>>;
  readonly version: string;
  /** The current time; a value so that tests can fix it. */
  readonly now: () => Date;
}
