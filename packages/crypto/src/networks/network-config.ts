import type { MilestoneEntry } from './milestone.js';
import type { NetworkParams } from './network-params.js';

/** `crypto/exceptions.json`: ids of historical blocks and transactions handled specially. */
export interface NetworkExceptions {
  readonly blocks?: readonly string[];
  readonly transactions?: readonly string[];
  readonly blocksTransactions?: Readonly<Record<string, readonly string[]>>;
  readonly [key: string]: unknown;
}

/** A network's crypto configuration as loaded from its `crypto/` directory. */
export interface NetworkConfig {
  readonly network: NetworkParams;
  /** The entries of `milestones.json` as written; `new Milestones(config.milestones)` merges them. */
  readonly milestones: readonly MilestoneEntry[];
  /** `genesisBlock.json` as written (transactions in their JSON form). */
  readonly genesisBlock: Readonly<Record<string, unknown>>;
  readonly exceptions: NetworkExceptions;
}
