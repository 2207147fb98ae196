import type { NetworkConfig } from '@lni/crypto';
import type { Cradle } from '@lni/kernel';
import type { PeerReader } from '@lni/p2p/contracts';
import type { LedgerReader, MissedSlotReader, Pool, PoolLimits } from '@lni/state/contracts';

/**
 * Everything the API reads from other plugins, each read when a request asks (services exist
 * only after boot). The plugin builds it from the container at register; routes and the live
 * feed take it instead of the container. A `required` source is used only by routes added when
 * its plugin runs; an `optional` one answers undefined when its plugin does not run here.
 */
export interface ApiSources {
  readonly required: {
    readonly ledger: () => LedgerReader;
    readonly pool: () => Pool;
    readonly network: () => NetworkConfig;
    readonly transactionQuery: () => Cradle['transactionQuery'];
    readonly blockQuery: () => Cradle['blockQuery'];
    readonly roundStorage: () => Cradle['roundStorage'];
    readonly missedSlots: () => MissedSlotReader;
    readonly webhookStorage: () => Cradle['webhookStorage'];
  };
  readonly optional: {
    readonly ledger: () => LedgerReader | undefined;
    readonly network: () => NetworkConfig | undefined;
    readonly poolLimits: () => PoolLimits | undefined;
    readonly peers: () => PeerReader | undefined;
  };
}
