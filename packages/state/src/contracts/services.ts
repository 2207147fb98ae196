import type { Milestones, NetworkConfig } from '@lni/crypto';
import type { Chain } from './chain.js';
import type { DelegateDirectory, ForgingSource } from './forging.js';
import type { LedgerReader } from './ledger.js';
import type { Pool, PoolLimits } from './pool.js';
import type { BlockCommit, MissedSlotReader } from './storage.js';

/** The services the `state` plugin registers for other plugins, under these names. */
declare module '@lni/kernel' {
  interface Cradle {
    /** Wallets, delegates, supply and the tip, as the API reads them. */
    readonly ledger: LedgerReader;
    /** The ledger as P2P serves and feeds it. */
    readonly chain: Chain;
    /** The round and the next block's transactions, as forgers ask over P2P. */
    readonly forgingSource: ForgingSource;
    /** Registered delegates, for a forger in the same process. */
    readonly delegates: DelegateDirectory;
    readonly transactionPool: Pool;
    readonly poolLimits: PoolLimits;
    /** The network's crypto files as loaded. */
    readonly networkConfig: NetworkConfig;
    readonly milestones: Milestones;
    /** The transaction each applied block is stored in; join it to write with the block. */
    readonly blockCommit: BlockCommit;
    /** Slots delegates let pass, kept with the block after each gap. */
    readonly missedSlots: MissedSlotReader;
  }
}
