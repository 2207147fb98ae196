import type { NetworkConfig } from '@lni/crypto';
import type { HealthCheck } from '@lni/kernel';
import type { NodeSources } from '../ledger/node-sources.js';
import { nodeSyncState } from '../routes/node-sync.js';

/**
 * The `sync` check of `/health`: passes while the node is within the sync rule of
 * `/api/node/syncing` (the API's rule), fails saying how far behind it is.
 */
export function syncHealthCheck(
  sync: Pick<NodeSources, 'lastBlock' | 'peers' | 'now'>,
  network: () => NetworkConfig,
): HealthCheck {
  return {
    name: 'sync',
    run: () => {
      const { synced, behind, lastBlock } = nodeSyncState(sync, network());
      const height = lastBlock?.height ?? 0;
      if (!synced) {
        return Promise.reject(new Error(`not synced: ${behind} blocks behind at ${height}`));
      }
      return Promise.resolve({ height, behind });
    },
  };
}
