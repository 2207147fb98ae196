import { Milestones, SlotClock, type NetworkConfig } from '@lni/crypto';
import type { NodeSources } from '../ledger/node-sources.js';
import type { LastBlockSummary } from '@lni/state/contracts';
import { syncStatus } from './sync-status.js';

export interface NodeSyncState {
  readonly synced: boolean;
  readonly behind: number;
  readonly lastBlock: LastBlockSummary | undefined;
  /** Seconds since the network epoch. */
  readonly now: number;
}

/**
 * The sync state `/api/node/status`, `/health` and the metrics report, from one rule: the
 * network's milestone at the last block, its peers, and the slot clock; on an api node, its lag
 * behind the writer.
 */
export function nodeSyncState(
  sources: Pick<NodeSources, 'lastBlock' | 'peers' | 'now' | 'writerLag'>,
  network: NetworkConfig,
): NodeSyncState {
  const lastBlock = sources.lastBlock();
  const lag = sources.writerLag?.();
  if (lag !== undefined) {
    // An api node syncs nothing itself: it is as far behind as its replica is behind the writer.
    const now = new SlotClock(new Milestones(network.milestones)).epochTime(
      sources.now().getTime(),
    );
    return { synced: lag.behind <= lag.maxLagBlocks, behind: lag.behind, lastBlock, now };
  }
  const milestones = new Milestones(network.milestones);
  const { blocktime } = milestones.at(Math.max(1, lastBlock?.height ?? 0));
  const now = new SlotClock(milestones).epochTime(sources.now().getTime());
  const peers = sources.peers()?.list() ?? [];
  const { synced, behind } = syncStatus({ lastBlock, peers, blocktime, now });
  return { synced, behind, lastBlock, now };
}
