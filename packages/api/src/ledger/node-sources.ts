import type { NetworkConfig } from '@lni/crypto';
import type { PeerReader } from '@lni/p2p/contracts';
import type { LastBlockSummary, PoolLimits } from '@lni/state/contracts';
import type { WriterLagReport } from '../lag/writer-lag.js';

/** Where the node routes read from; each is absent when its plugin does not run here. */
export interface NodeSources {
  readonly network: () => NetworkConfig | undefined;
  /** The last block; undefined when the ledger does not run here or has no block yet. */
  readonly lastBlock: () => LastBlockSummary | undefined;
  readonly peers: () => PeerReader | undefined;
  readonly poolLimits: () => PoolLimits | undefined;
  readonly ports: Readonly<Record<string, number>>;
  readonly version: string;
  /** The current time; a value so that tests can fix it. */
  readonly now: () => Date;
  /** On an api node (no state here): how far it is behind the node that writes the chain. */
  readonly writerLag?: () => WriterLagReport | undefined;
}
