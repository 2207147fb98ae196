import type { BlockCommit, LedgerBlock } from '@lni/state/contracts';
import type { Queryable, SightingStore } from './sighting-store.js';
import { sightingsOf, type Sighting } from './sightings.js';

/** Records the transactions of each stored block that touch a watched address. */
export class AddressWatcher {
  private lastHeight: number | undefined;
  private leave: (() => void) | undefined;

  constructor(
    readonly watched: ReadonlySet<string>,
    private readonly store: SightingStore,
    private readonly counted: (sighting: Sighting) => void,
  ) {}

  /** Joins the state plugin's block transaction; `stop` leaves it. */
  follow(blockCommit: Pick<BlockCommit, 'join'>): void {
    this.leave ??= blockCommit.join((transaction, { block }) =>
      this.blockCommitting(transaction, block),
    );
  }

  stop(): void {
    this.leave?.();
    this.leave = undefined;
  }

  /**
   * Joined to the state plugin's `blockCommit`: writes a block's sightings in the block's own
   * database transaction, so they are stored with the block or not at all (a node killed right
   * after the commit loses none). Counts them once the block is committed.
   */
  async blockCommitting(transaction: Queryable, block: LedgerBlock): Promise<() => void> {
    const sightings = (block.transactions ?? []).flatMap((one) =>
      sightingsOf(one, block.height, this.watched),
    );
    await this.store.record(sightings, transaction);
    return () => {
      sightings.forEach(this.counted);
      this.lastHeight = block.height;
    };
  }

  /** The height of the last block committed; undefined before the first. */
  get lastHeightSeen(): number | undefined {
    return this.lastHeight;
  }
}
