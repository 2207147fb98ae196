import type { NetworkConfig } from '@lni/crypto';
import { Gauge, type Registry } from 'prom-client';
import type { NodeSources } from '../ledger/node-sources.js';
import { nodeSyncState } from '../routes/node-sync.js';

/** lni_sync_blocks_behind, by the rule of `/api/node/status`, computed at each scrape. */
export function registerSyncMetrics(
  registry: Registry,
  sources: Pick<NodeSources, 'lastBlock' | 'peers' | 'now'>,
  network: () => NetworkConfig,
): void {
  new Gauge({
    name: 'lni_sync_blocks_behind',
    help: 'Blocks behind the height most peers report, or without peers the slots gone by empty (as /api/node/status)',
    registers: [registry],
    collect() {
      this.set(nodeSyncState(sources, network()).behind);
    },
  });
}
