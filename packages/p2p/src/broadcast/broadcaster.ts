import type { Logger } from '@lni/kernel';
import type { PeerAddress } from '@lni/state/contracts';
import type { PeerClient } from '../peers/peer-client.js';
import type { PeerNetwork } from '../peers/peer-network.js';
import type { BlockCatchUp } from './catch-up.js';
import { SeenSet } from './seen-set.js';

export interface BroadcasterDeps {
  readonly network: PeerNetwork;
  readonly logger: Logger;
  /** Most nodes a message passes through; one that arrived with this many is not passed on. */
  readonly maxHops: number;
  /** Blocks and transactions remembered as seen. */
  readonly seenCapacity: number;
  /** Transactions per postTransactions (ARK takes at most 40). */
  readonly maxTransactionsPerRequest: number;
  /** Sends a peer that refused a block for lacking its parent the blocks it lacks. */
  readonly catchUp?: BlockCatchUp;
}

/**
 * Passes accepted blocks and transactions on to every connected peer but the one they came
 * from, each once (a seen-set) and no further than `maxHops` nodes from where they started. The
 * hop count travels in an LNI field ARK peers skip; they pass on by their own rules.
 */
export class Broadcaster {
  private readonly seen: SeenSet;

  constructor(private readonly deps: BroadcasterDeps) {
    this.seen = new SeenSet(deps.seenCapacity);
  }

  /**
   * A block the ledger accepted (serialized whole) at `height`; `hops`: nodes that passed it on
   * before us. A peer answering false below the block's parent is caught up (`catchUp`).
   */
  block(block: Buffer, hops: number, from?: PeerAddress, height?: number): void {
    if (!this.seen.add(block) || hops + 1 > this.deps.maxHops) return;
    const targets = this.targets(from);
    this.deps.logger.debug({ peers: targets.length, hops }, 'Broadcasting block');
    const { catchUp } = this.deps;
    for (const client of targets) {
      client
        .postBlock(block, hops + 1)
        .then((reply) => {
          if (!reply.status && catchUp && height !== undefined) {
            catchUp.refused(client, height, reply.height);
          }
        })
        .catch((error: unknown) => this.deps.network.reportFailure(client, error));
    }
  }

  /** Transactions the pool took; those already seen are left out. */
  transactions(transactions: readonly Buffer[], hops: number, from?: PeerAddress): void {
    if (hops + 1 > this.deps.maxHops) return;
    const fresh = transactions.filter((bytes) => this.seen.add(bytes));
    if (fresh.length === 0) return;
    const targets = this.targets(from);
    const size = this.deps.maxTransactionsPerRequest;
    for (let start = 0; start < fresh.length; start += size) {
      const batch = fresh.slice(start, start + size);
      for (const client of targets) {
        client
          .postTransactions(batch, hops + 1)
          .catch((error: unknown) => this.deps.network.reportFailure(client, error));
      }
    }
  }

  private targets(from: PeerAddress | undefined): PeerClient[] {
    return this.deps.network
      .connected()
      .filter(
        (client) =>
          !(
            from &&
            client.ip === from.ip &&
            (from.port === undefined || client.port === from.port)
          ),
      );
  }
}
