import { ProgressLog, type Logger } from '@lni/kernel';
import type { BlockHeader } from '@lni/crypto';
import type { Chain } from '@lni/state/contracts';
import type { PeerClient } from '../peers/peer-client.js';
import type { PeerNetwork } from '../peers/peer-network.js';
import type { PeerRepository } from '../peers/peer-repository.js';
import { MAX_BLOCKS_PER_REPLY } from '../wire/codecs.js';
import { findHighestCommonBlock } from './common-block-search.js';
import type { WireBlock } from '../wire/messages.js';
import { chooseSyncPlan, onOurChain, type PeerOnChain } from './sync-plan.js';

export interface BlockSyncDeps {
  readonly chain: Chain;
  readonly network: PeerNetwork;
  readonly peers: PeerRepository;
  readonly logger: Logger;
  /** Blocks per getBlocks request (at most 400). */
  readonly batchSize: number;
  /** Batches downloaded ahead of the one being applied, spread over the peers. */
  readonly parallelDownloads: number;
}

export type SyncOutcome =
  | { readonly kind: 'up-to-date'; readonly height: number }
  | { readonly kind: 'synced'; readonly from: number; readonly height: number }
  | { readonly kind: 'stalled'; readonly height: number; readonly reason: string };

/**
 * Brings our chain to the network's: when peers report a higher height it downloads batches
 * from several of them at once and applies them in order while the next batches download. On a
 * fork followed by most peers it rolls back to the common block first. One run at a time.
 */
export class BlockSync {
  private current: Promise<SyncOutcome> | undefined;
  private again = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: BlockSyncDeps) {}

  /** Checks the peers every `intervalMs` (0: only when woken). */
  start(intervalMs: number): void {
    this.stop();
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Something suggests we are behind (a peer's block did not fit): sync soon. */
  wake(): void {
    if (this.closed) return;
    if (this.current) {
      this.again = true;
      return;
    }
    this.sync().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'Sync run failed'));
  }

  /** Runs a sync now, or joins the run in progress. */
  sync(): Promise<SyncOutcome> {
    this.current ??= this.run().finally(() => {
      this.current = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
    return this.current;
  }

  /** Waits for the run in progress, for a clean stop. */
  async settle(): Promise<void> {
    this.closed = true;
    this.stop();
    this.again = false;
    await this.current?.catch(() => undefined);
  }

  private async run(): Promise<SyncOutcome> {
    const { chain } = this.deps;
    const start = chain.status();
    const peers = await this.survey(start.header);
    const plan = chooseSyncPlan(start.height, peers);
    if (plan.kind === 'none') return { kind: 'up-to-date', height: start.height };
    if (plan.kind === 'fork') {
      const reverted = await this.leaveFork(plan.sources);
      if (reverted !== undefined) return reverted;
    }
    const from = chain.status().height;
    const stall = await this.download(plan.sources);
    const height = chain.status().height;
    return stall === undefined
      ? { kind: 'synced', from, height }
      : { kind: 'stalled', height, reason: stall };
  }

  /** Asks each connected peer for its status and whether its chain holds our last block. */
  private async survey(ours: BlockHeader): Promise<PeerOnChain[]> {
    const { network, chain } = this.deps;
    const [genesis] = await chain.blockIds([1]);
    if (!genesis) return [];
    const answers = await Promise.all(
      network.connected().map(async (client): Promise<PeerOnChain | undefined> => {
        try {
          const status = await network.status(client);
          return {
            client,
            height: status.state.height,
            onOurChain: await onOurChain(client, status, ours, genesis),
          };
        } catch (error) {
          network.reportFailure(client, error);
          return undefined;
        }
      }),
    );
    return answers.filter((answer) => answer !== undefined);
  }

  /**
   * Finds the highest block we share with the peers of the other chain and rolls back to it.
   * Resolves with an outcome only when it cannot (no common block, or the ledger cannot roll back).
   */
  private async leaveFork(sources: readonly PeerOnChain[]): Promise<SyncOutcome | undefined> {
    const { chain, logger } = this.deps;
    const ours = chain.status();
    for (const { client } of sources) {
      try {
        const search = await findHighestCommonBlock(chain, client, ours.height);
        if (!search.found) {
          if (search.lied) this.deps.peers.penalise(client.ip, 'malformedMessage', search.reason);
          continue;
        }
        const common = search.height;
        logger.warn(
          { height: ours.height, common, peer: client.address },
          'On a fork: rolling back to the block in common with most peers',
        );
        await chain.revertTo(common);
        return undefined;
      } catch (error) {
        this.deps.network.reportFailure(client, error);
      }
    }
    return { kind: 'stalled', height: ours.height, reason: 'no block in common with the fork' };
  }

  /**
   * The pipeline: up to `parallelDownloads` batches in flight from different peers, applied
   * strictly in height order. Resolves with the reason it stopped early, if it did.
   */
  private async download(sources: readonly PeerOnChain[]): Promise<string | undefined> {
    const { chain, batchSize, parallelDownloads } = this.deps;
    const size = Math.min(batchSize, MAX_BLOCKS_PER_REPLY);
    const target = Math.max(...sources.map((peer) => peer.height));
    // A catch-up is told at a steady rate; following the network block by block is not.
    const catchingUp = target - chain.status().height >= CATCH_UP_BLOCKS;
    const progress = catchingUp
      ? new ProgressLog({
          logger: this.deps.logger,
          message: 'Syncing blocks',
          doneMessage: 'Blocks synced',
          positionField: 'height',
          unit: 'blocks',
          intervalMs: 10_000,
        })
      : undefined;
    const inFlight = new Map<number, Promise<Batch>>();
    let nextToRequest = chain.status().height + 1;
    let turn = 0;
    // Each batch goes to the next peer in turn that has its first block; the others that
    // have it are asked in turn when that peer fails.
    const fill = () => {
      while (inFlight.size < parallelDownloads) {
        const able = sources.filter((peer) => peer.height >= nextToRequest);
        if (able.length === 0) return;
        const first = turn++ % able.length;
        const order = [...able.slice(first), ...able.slice(0, first)].map((peer) => peer.client);
        inFlight.set(nextToRequest, this.fetchFromAny(order, nextToRequest, size));
        nextToRequest += size;
      }
    };
    try {
      let height = chain.status().height + 1;
      for (;;) {
        if (this.closed) return 'the node is stopping';
        fill();
        const pending = inFlight.get(height);
        if (!pending) return undefined; // no peer has more
        const batch = await pending;
        inFlight.delete(height);
        if (batch.blocks.length === 0) return batch.failure;
        const stopped = await this.apply(batch);
        if (stopped) return stopped;
        height += batch.blocks.length;
        progress?.update(height - 1, target);
        if (batch.blocks.length < batch.limit) {
          // Fewer than asked: the peer has no more, or it capped its answer in bytes (full
          // blocks). Ask peers that have them for the rest of this batch's range.
          const able = sources.filter((peer) => peer.height >= height);
          if (able.length === 0) return undefined;
          const rest = batch.limit - batch.blocks.length;
          inFlight.set(
            height,
            this.fetchFromAny(
              able.map((peer) => peer.client),
              height,
              rest,
            ),
          );
        }
      }
    } finally {
      progress?.finish();
      await Promise.allSettled(inFlight.values());
    }
  }

  private async fetchFromAny(
    candidates: readonly PeerClient[],
    fromHeight: number,
    limit: number,
  ): Promise<Batch> {
    let last: Batch = {
      source: candidates[0] as PeerClient,
      blocks: [],
      limit,
      failure: 'no peer',
    };
    for (const candidate of candidates) {
      if (this.closed) break;
      last = await this.fetch(candidate, fromHeight, limit);
      if (last.failure === undefined) return last;
    }
    return last;
  }

  /** One batch; our client keeps under the peer's getBlocks limit (ARK: 1 per 2 s). */
  private async fetch(source: PeerClient, fromHeight: number, limit: number): Promise<Batch> {
    try {
      const blocks = await source.blocks(fromHeight, limit);
      return { source, blocks, limit };
    } catch (error) {
      this.deps.network.reportFailure(source, error);
      return { source, blocks: [], limit, failure: `getBlocks from ${source.address} failed` };
    }
  }

  /** Applies a batch in order; resolves with why it stopped when a block was not taken. */
  private async apply({ source, blocks }: Batch): Promise<string | undefined> {
    const { chain, peers, logger } = this.deps;
    for (const block of blocks) {
      const verdict = await chain.acceptBlock(block, { ip: source.ip, port: source.port });
      if (verdict.status === 'accepted' || verdict.status === 'known') continue;
      if (verdict.status === 'invalid') {
        peers.penalise(source.ip, 'invalidBlock', verdict.reason);
      }
      logger.warn(
        { peer: source.address, height: chain.status().height, reason: verdict.reason },
        'Sync stopped: a downloaded block was not taken',
      );
      return `${source.address}: ${verdict.reason}`;
    }
    return undefined;
  }
}

/** Blocks behind from which a sync run reports its progress at info. */
const CATCH_UP_BLOCKS = 10;

interface Batch {
  readonly source: PeerClient;
  readonly blocks: readonly WireBlock[];
  /** Blocks asked for; fewer in `blocks` means the peer had no more or capped its answer. */
  readonly limit: number;
  readonly failure?: string;
}
