import type { Logger } from '@lni/kernel';
import type { PeerAddress } from '../chain-port.js';
import type { PeerClient } from '../peers/peer-client.js';
import type { PeerNetwork } from '../peers/peer-network.js';
import {
  MAX_TRANSACTIONS_PER_POST,
  postBlockResponseSchema,
  postTransactionsResponseSchema,
} from '../protocol/messages.js';
import { SeenSet } from './seen-set.js';

export interface BroadcasterDeps {
  readonly network: PeerNetwork;
  readonly logger: Logger;
  /** Most nodes a message passes through; one that arrived with this many is not passed on. */
  readonly maxHops: number;
  /** Blocks and transactions remembered as seen. */
  readonly seenCapacity: number;
}

/**
 * Passes accepted blocks and transactions on to every connected peer but the one they came
 * from, each once (a seen-set) and no further than `maxHops` nodes from where they started.
 */
export class Broadcaster {
  private readonly seen: SeenSet;

  constructor(private readonly deps: BroadcasterDeps) {
    this.seen = new SeenSet(deps.seenCapacity);
  }

  /** A block the ledger accepted; `hops` is how many nodes passed it on before us. */
  block(blockHex: string, hops: number, from?: PeerAddress): void {
    if (!this.seen.add(blockHex) || hops + 1 > this.deps.maxHops) return;
    const targets = this.targets(from);
    this.deps.logger.debug({ peers: targets.length, hops }, 'Broadcasting block');
    for (const client of targets) {
      client
        .request('postBlock', { block: blockHex, hops: hops + 1 }, postBlockResponseSchema)
        .catch((error: unknown) => this.deps.network.reportFailure(client, error));
    }
  }

  /** Transactions the pool took; those already seen are left out. */
  transactions(transactionsHex: readonly string[], hops: number, from?: PeerAddress): void {
    if (hops + 1 > this.deps.maxHops) return;
    const fresh = transactionsHex.filter((hex) => this.seen.add(hex));
    if (fresh.length === 0) return;
    const targets = this.targets(from);
    for (let start = 0; start < fresh.length; start += MAX_TRANSACTIONS_PER_POST) {
      const batch = fresh.slice(start, start + MAX_TRANSACTIONS_PER_POST);
      for (const client of targets) {
        client
          .request(
            'postTransactions',
            { transactions: batch, hops: hops + 1 },
            postTransactionsResponseSchema,
          )
          .catch((error: unknown) => this.deps.network.reportFailure(client, error));
      }
    }
  }

  /** Marks a payload seen without passing it on (blocks applied by sync are old news). */
  markSeen(hex: string): void {
    this.seen.add(hex);
  }

  private targets(from: PeerAddress | undefined): PeerClient[] {
    return this.deps.network
      .connected()
      .filter((client) => !(from && client.ip === from.ip && client.port === from.port));
  }
}
