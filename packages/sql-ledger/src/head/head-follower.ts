import { addressFromPublicKey, calculateRound, type Milestones } from '@lni/crypto';
import type { EventBus, Logger } from '@lni/kernel';
import { appliedBlockEvents, emitBlockApplied, forgingOrder, type ElectionLog } from '@lni/state';
import type { LedgerBlock } from '@lni/state/contracts';
import type { HeadChanges, HeadReader } from './head-reader.js';
import type { HeadCache } from './ledger-head.js';

export interface HeadFollowerDeps {
  readonly reader: HeadReader;
  readonly headCache: HeadCache;
  readonly events: EventBus;
  readonly milestones: Milestones;
  readonly pubKeyHash: number;
  readonly logger: Logger;
  /** The longest the head goes unread. */
  readonly pollMs: number;
  /** Applied blocks kept to announce a revert with (the writer has deleted their rows by then). */
  readonly revertWindow: number;
}

/** Blocks read per snapshot when the head moved far (an api node that was away). */
const MAX_BLOCKS_PER_READ = 100;
/** Reads one wake may take to catch up before the next wake or poll goes on. */
const MAX_PASSES = 100;

/**
 * Follows the head the writer keeps in `state_head`: when woken (the writer's commit signal)
 * and at least every `pollMs`, reads it; when it moved up, publishes each new block's events on
 * the bus in height order as the state plugin would, so that the API's live feed works
 * unchanged; when the writer reverted, publishes `block.reverted` for each dropped block first.
 */
export class HeadFollower {
  readonly #deps: HeadFollowerDeps;
  /** The blocks announced, oldest first, at most `revertWindow`. */
  #window: LedgerBlock[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;
  /** Whether the last read failed: an outage is told once, and its end. */
  #failing = false;

  constructor(deps: HeadFollowerDeps) {
    this.#deps = deps;
  }

  /** Reads the head once (publishing nothing for the blocks below it), then follows it. */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#refresh(true);
    this.#schedule();
  }

  /** Reads the head now (a commit signal, or a reconnect after which signals may have been lost). */
  wake(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        // Bounded: a head whose block never shows up must not hold the follower in a loop.
        for (let pass = 0; pass < MAX_PASSES && !this.#stopped; pass += 1) {
          this.#again = false;
          await this.#refresh(false);
          if (!this.#again) break;
        }
        if (this.#failing) this.#deps.logger.info('Ledger head read again');
        this.#failing = false;
      } catch (error) {
        if (!this.#failing) {
          this.#deps.logger.warn({ err: error }, 'Could not read the ledger head; retrying');
        }
        this.#failing = true;
      } finally {
        this.#running = undefined;
      }
    })();
    return this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      void this.wake().finally(() => this.#schedule());
    }, this.#deps.pollMs);
    this.#timer.unref();
  }

  async #refresh(starting: boolean): Promise<void> {
    const { reader, headCache } = this.#deps;
    const top = this.#window.at(-1);
    const changes = await reader.read({
      knownId: top?.id,
      checkHeights: this.#window.map((block) => block.height),
      // At start only the head block is read: what came before was published by someone else.
      from: starting ? Number.MAX_SAFE_INTEGER : this.#forkPoint(undefined) + 1,
      maxBlocks: MAX_BLOCKS_PER_READ,
      electedRound: (height) => this.#electedRound(height),
    });
    const { head } = changes;
    if (head === undefined) {
      headCache.update(undefined, new Map());
      return;
    }
    if (starting || top === undefined) return this.#startAt(head.height);
    if (head.blockId === top.id) return;

    const common = this.#forkPoint(changes);
    const dropped = this.#window.filter((block) => block.height > common).reverse();
    this.#window = this.#window.filter((block) => block.height <= common);
    // After a revert the blocks read start above the old tip: publish the drops now, and read
    // the new branch from the fork on the next pass so that its blocks come out in order.
    const applied = dropped.length > 0 ? [] : changes.blocks;
    if (dropped.length > 0) this.#again = true;
    this.#publish(changes, dropped, applied);
  }

  /** Reads the head block so that the next refresh has a block to compare ids with. */
  async #startAt(height: number): Promise<void> {
    const changes = await this.#deps.reader.read({
      knownId: undefined,
      checkHeights: [],
      from: height,
      maxBlocks: 1,
      electedRound: () => undefined,
    });
    this.#window = [...changes.blocks];
    this.#updateCache(changes);
  }

  /**
   * The highest announced height whose block is still stored: everything above was reverted.
   * Without `changes` (before reading), the window's top, from which new blocks are read.
   */
  #forkPoint(changes: HeadChanges | undefined): number {
    const top = this.#window.at(-1);
    if (changes === undefined) return top?.height ?? 0;
    for (let i = this.#window.length - 1; i >= 0; i -= 1) {
      const block = this.#window[i] as LedgerBlock;
      if (changes.storedIds.get(block.height) === block.id) return block.height;
    }
    // Reverted below the window: announce what is known of it; the rest is gone.
    return Math.min((this.#window[0]?.height ?? 1) - 1, changes.head?.height ?? 0);
  }

  #publish(changes: HeadChanges, dropped: readonly LedgerBlock[], applied: readonly LedgerBlock[]) {
    const { events, pubKeyHash, revertWindow } = this.#deps;
    this.#window.push(...applied);
    if (this.#window.length > revertWindow)
      this.#window.splice(0, this.#window.length - revertWindow);
    this.#updateCache(changes);
    for (const block of dropped) events.emit('block.reverted', { block });
    const elections = this.#elections(changes);
    const addressOf = (publicKey: string) => addressFromPublicKey(publicKey, pubKeyHash);
    for (const block of applied) {
      emitBlockApplied(
        events,
        appliedBlockEvents(block, {
          elections,
          addressOf,
          usernameOf: (publicKey) => changes.usernames.get(publicKey),
          changed: changes.changed.get(block.height) ?? [],
        }),
      );
    }
    const last = applied.at(-1);
    if (dropped.length > 0 || last) {
      this.#deps.logger.debug(
        { reverted: dropped.length, applied: applied.length, height: last?.height },
        'Ledger head moved',
      );
    }
  }

  #updateCache(changes: HeadChanges): void {
    const { head } = changes;
    const top = this.#window.at(-1);
    if (head === undefined || top === undefined) return;
    // The head is beyond what was read (more blocks follow): serve the last block published.
    if (top.id !== head.blockId) this.#again = true;
    this.#deps.headCache.update(
      {
        height: top.height,
        blockId: top.id,
        supply: head.supply,
        lastBlock: { id: top.id, height: top.height, timestamp: top.timestamp },
      },
      changes.usernames,
    );
  }

  /** The round a block elected: round 1 at the genesis block, r + 1 at round r's last block. */
  #electedRound(height: number): number | undefined {
    if (height === 1) return 1;
    const { round, nextRound } = calculateRound(height, this.#deps.milestones);
    return nextRound !== round ? nextRound : undefined;
  }

  #elections(changes: HeadChanges): ElectionLog {
    return {
      electedBy: (height) => {
        const round = this.#electedRound(height);
        const ranked = round === undefined ? undefined : changes.rounds.get(round);
        if (round === undefined || ranked === undefined || ranked.length === 0) return undefined;
        return {
          round,
          order: forgingOrder(
            round,
            ranked.map((delegate) => delegate.publicKey),
          ),
          votes: new Map(ranked.map((delegate) => [delegate.publicKey, delegate.balance])),
        };
      },
      latestRoundAt: (height) => calculateRound(height, this.#deps.milestones).nextRound,
    };
  }
}
