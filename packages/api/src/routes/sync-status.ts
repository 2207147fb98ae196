import type { PeerSummary } from '@lni/p2p/contracts';

/**
 * A node alone is synced while its last block is younger than this many block times, as ARK's
 * `isSynced` counts; older, it is stuck or cut off, whatever its height.
 */
export const STALE_AFTER_BLOCKTIMES = 3;

export interface SyncInput {
  /** Height and epoch timestamp (seconds) of the last block; undefined before the genesis block. */
  readonly lastBlock: { readonly height: number; readonly timestamp: number } | undefined;
  readonly peers: readonly PeerSummary[];
  /** Seconds between blocks at the last block's height (the `blocktime` milestone). */
  readonly blocktime: number;
  /** Seconds since the network epoch now: the slot clock. */
  readonly now: number;
}

export interface SyncStatus {
  readonly synced: boolean;
  /** Blocks behind: to the height most peers report, or without peers the slots gone by empty. */
  readonly behind: number;
}

/** The height most peers report; our own when we know no peer. */
export function networkHeight(peers: readonly PeerSummary[], own: number): number {
  if (peers.length === 0) return own;
  const heights = peers.map((peer) => peer.height).sort((a, b) => a - b);
  return Math.max(own, heights[Math.floor(heights.length / 2)] ?? own);
}

/**
 * Whether the node follows its network. With peers, it is synced at the height most of them
 * report. Without peers only the slot clock can tell: a core node forging alone keeps its last
 * block a slot or two old, a node cut off from its network falls further behind every slot.
 */
export function syncStatus({ lastBlock, peers, blocktime, now }: SyncInput): SyncStatus {
  const height = lastBlock?.height ?? 0;
  if (peers.length > 0) {
    const behind = networkHeight(peers, height) - height;
    return { synced: behind === 0, behind };
  }
  if (lastBlock === undefined) return { synced: false, behind: 0 };
  const age = Math.max(0, now - lastBlock.timestamp);
  if (age < STALE_AFTER_BLOCKTIMES * blocktime) return { synced: true, behind: 0 };
  return { synced: false, behind: Math.floor(age / blocktime) };
}
