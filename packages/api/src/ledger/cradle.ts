import type { NetworkConfig } from '@lni/crypto';
import type { LedgerReader } from './ledger-reader.js';
import type { PoolLimits } from './node-sources.js';

/**
 * Services the API reads that the state plugin registers under these names. The API declares
 * the shapes it needs, so neither package imports the other.
 */
declare module '@lni/kernel' {
  interface Cradle {
    readonly apiLedger: LedgerReader;
    /** The network's crypto files as loaded. */
    readonly networkConfig: NetworkConfig;
    /** Limits of the transaction pool. */
    readonly poolLimits: PoolLimits;
  }
}
