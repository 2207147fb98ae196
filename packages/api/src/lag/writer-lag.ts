import type { CommitSignalSource } from '@lni/database/contracts';
import type { HealthCheck } from '@lni/kernel';
import { BLOCK_COMMITTED_CHANNEL } from '@lni/state/contracts';

/** How far an api node is behind the node that writes the chain. */
export interface WriterLagReport {
  /** This node's height: what its database has replayed and its ledger read. */
  readonly height: number;
  /** The writer's height at its last commit signal; undefined before the first one. */
  readonly writerHeight: number | undefined;
  /** Blocks behind the writer (0 while the writer's height is unknown). */
  readonly behind: number;
  readonly maxLagBlocks: number;
}

export interface WriterLagDeps {
  readonly ownHeight: () => number;
  readonly maxLagBlocks: number;
}

/**
 * The writer's height as its commit signals tell it, on arrival (before this node's replica has
 * replayed the commit): the difference with this node's own height is its lag. The latest
 * signal wins, so a revert on the writer lowers it too.
 */
export class WriterLag {
  private writerHeight: number | undefined;

  constructor(private readonly deps: WriterLagDeps) {}

  /** Follows the writer's commits; returns the unsubscribe. */
  follow(signals: CommitSignalSource): () => void {
    return signals.onArrival(BLOCK_COMMITTED_CHANNEL, (payload) => this.heard(payload));
  }

  heard(payload: string): void {
    try {
      const { height } = JSON.parse(payload) as { height?: unknown };
      if (typeof height === 'number' && Number.isSafeInteger(height) && height >= 0) {
        this.writerHeight = height;
      }
    } catch {
      // Not a payload of ours: another sender on the channel; nothing to learn from it.
    }
  }

  report(): WriterLagReport {
    const height = this.deps.ownHeight();
    const writerHeight = this.writerHeight;
    const behind = writerHeight === undefined ? 0 : Math.max(0, writerHeight - height);
    return { height, writerHeight, behind, maxLagBlocks: this.deps.maxLagBlocks };
  }
}

/**
 * The `lag` check of `/health` on an api node: fails past `maxLagBlocks` behind the writer, so a
 * load balancer takes the node out until its replica catches up.
 */
export function writerLagHealthCheck(lag: WriterLag): HealthCheck {
  return {
    name: 'lag',
    run: () => {
      const report = lag.report();
      if (report.behind > report.maxLagBlocks) {
        return Promise.reject(
          new Error(
            `${report.behind} blocks behind the writer (height ${report.height}, writer ${report.writerHeight}); maxLagBlocks is ${report.maxLagBlocks}`,
          ),
        );
      }
      return Promise.resolve({
        height: report.height,
        writerHeight: report.writerHeight ?? null,
        behind: report.behind,
      });
    },
  };
}
