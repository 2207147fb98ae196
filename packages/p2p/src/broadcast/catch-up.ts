import type { Logger } from '@lni/kernel';
import type { Chain } from '@lni/state/contracts';
import type { PeerClient } from '../peers/peer-client.js';

export interface CatchUpDeps {
  readonly chain: Pick<Chain, 'blocksFrom' | 'serializeBlock'>;
  readonly logger: Logger;
  /**
   * Most blocks a peer may lack below a block it refused for us to send them; 0 sends none.
   * A larger gap is left to the peer's own sync, which downloads 400 blocks per request.
   */
  readonly maxBlocks: number;
  /** Wait between two posts of one catch-up: ARK's postBlock limit spread evenly. */
  readonly spacingMs: number;
  /** Hop count the blocks travel with: our maxHops, so LNI peers do not pass old blocks on. */
  readonly hops: number;
  readonly reportFailure: (client: PeerClient, error: unknown) => void;
}

/** One peer's catch-up in progress: heights still to send, up to `target`. */
interface Run {
  next: number;
  target: number;
}

/** Peers whose refusals are remembered; past it the memory starts again (peers come and go). */
const MAX_REMEMBERED = 1024;

/** Bytes read per stored block: ARK's postBlock takes messages of up to 20 MiB. */
const MAX_BLOCK_BYTES = 20 * 1024 * 1024;

/**
 * Sends a peer the blocks it lacks when it refused one we broadcast because it does not have
 * the block before (ARK answers postBlock `{ status: false, height }` then, `height` its last
 * block), so it is level at once instead of at its own next sync. One catch-up per peer at a
 * time; a block refused during a catch-up ends it, and the peer gets no second one for a block
 * at or below that height (a forked peer would refuse forever).
 */
export class BlockCatchUp {
  private readonly runs = new Map<string, Run>();
  /** Per peer, the highest block a catch-up ended on with a refusal. */
  private readonly refusedAt = new Map<string, number>();

  constructor(private readonly deps: CatchUpDeps) {}

  /** The peer answered false to our block at `blockHeight`, its own last block at `peerHeight`. */
  refused(client: PeerClient, blockHeight: number, peerHeight: number): void {
    const missing = blockHeight - 1 - peerHeight;
    // Holding the parent (or more) and still refusing: a fork or a race its own sync settles.
    if (missing <= 0 || this.deps.maxBlocks === 0 || !this.deps.chain.serializeBlock) return;
    const key = client.address;
    if ((this.refusedAt.get(key) ?? 0) >= blockHeight) return;
    const running = this.runs.get(key);
    if (running) {
      // A newer block overtook the catch-up: send it too, once the ones before it are there.
      running.target = Math.max(running.target, blockHeight);
      return;
    }
    if (missing > this.deps.maxBlocks) {
      this.deps.logger.debug(
        { peer: key, height: peerHeight, block: blockHeight, max: this.deps.maxBlocks },
        'Peer lacks too many blocks to be sent them; left to its own sync',
      );
      return;
    }
    const run = { next: peerHeight + 1, target: blockHeight };
    this.runs.set(key, run);
    void this.send(client, run).finally(() => this.runs.delete(key));
  }

  private async send(client: PeerClient, run: Run): Promise<void> {
    const key = client.address;
    const from = run.next;
    let sent = 0;
    try {
      while (run.next <= run.target && client.isOpen) {
        const bytes = await this.storedBlock(run.next);
        if (!bytes) break; // rolled back meanwhile: sync will sort it out
        // Spaced so the peer has applied one before the next arrives: ARK checks a posted block
        // against the last block it applied or downloaded, not against those still queued.
        if (sent > 0) await new Promise((resolve) => setTimeout(resolve, this.deps.spacingMs));
        const reply = await client.postBlock(bytes, this.deps.hops);
        sent += 1;
        if (!reply.status) {
          if (this.refusedAt.size >= MAX_REMEMBERED) this.refusedAt.clear();
          this.refusedAt.set(key, run.target);
          this.deps.logger.debug(
            { peer: key, block: run.next, height: reply.height },
            'Peer refused a block sent to catch it up; left to its own sync',
          );
          return;
        }
        run.next += 1;
      }
      this.deps.logger.debug(
        { peer: key, from, to: run.next - 1, blocks: sent },
        'Sent a peer the blocks it lacked',
      );
    } catch (error) {
      this.deps.reportFailure(client, error);
    }
  }

  private async storedBlock(height: number): Promise<Buffer | undefined> {
    const { chain } = this.deps;
    if (!chain.serializeBlock) return undefined;
    const [block] = await chain.blocksFrom(height, 1, {
      headersOnly: false,
      maxBytes: MAX_BLOCK_BYTES,
    });
    return block && block.header.height === height ? chain.serializeBlock(block) : undefined;
  }
}
