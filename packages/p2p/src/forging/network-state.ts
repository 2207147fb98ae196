import type { Logger } from '@lni/kernel';
import type { BlockHeader, ChainPort } from '../chain-port.js';
import type { PeerClient } from '../peers/peer-client.js';
import type { PeerNetwork } from '../peers/peer-network.js';
import type { StatusResponse } from '../protocol/messages.js';
import { onOurChain } from '../sync/sync-plan.js';
import type { NetworkState } from './forging-port.js';

export interface NetworkStateReaderDeps {
  readonly chain: ChainPort;
  readonly network: PeerNetwork;
  readonly logger: Logger;
}

/**
 * Asks every connected peer for its status and judges the network as ARK 3.0 does: a peer counts
 * for the quorum when it is at or above our height and has our last block at our height.
 */
export class NetworkStateReader {
  constructor(private readonly deps: NetworkStateReaderDeps) {}

  async read(): Promise<NetworkState> {
    const { chain, network } = this.deps;
    const ours = chain.status();
    const answers = await Promise.all(
      network.connected().map((client) => this.judge(client, ours.header)),
    );
    const statuses = answers.filter((answer) => answer !== undefined);
    const agreeing = statuses.filter((answer) => answer.agrees).length;
    const above = new Map<string, NetworkState['blocksAboveHeight'][number]>();
    for (const { status } of statuses) {
      if (status.height > ours.height) {
        const { id, height, generatorPublicKey } = status.header;
        above.set(id, { id, height, generatorPublicKey });
      }
    }
    return {
      nodeHeight: ours.height,
      networkHeight: mostReported(statuses.map(({ status }) => status.height)) ?? ours.height,
      peers: statuses.length,
      quorum: statuses.length === 0 ? 0 : agreeing / statuses.length,
      blocksAboveHeight: [...above.values()].sort((a, b) => a.height - b.height),
    };
  }

  private async judge(
    client: PeerClient,
    ours: BlockHeader,
  ): Promise<{ status: StatusResponse; agrees: boolean } | undefined> {
    try {
      const status = await this.deps.network.status(client);
      return { status, agrees: await onOurChain(client, status, ours) };
    } catch (error) {
      this.deps.network.reportFailure(client, error);
      return undefined;
    }
  }
}

/** The value reported most often; on a tie the higher one. */
function mostReported(heights: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const height of heights) counts.set(height, (counts.get(height) ?? 0) + 1);
  let best: { height: number; count: number } | undefined;
  for (const [height, count] of counts) {
    if (!best || count > best.count || (count === best.count && height > best.height)) {
      best = { height, count };
    }
  }
  return best?.height;
}
