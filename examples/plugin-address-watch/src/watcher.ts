import type { LedgerBlock } from '@lni/state/contracts';
import type { SightingStore } from './sighting-store.js';
import { sightingsOf, type Sighting } from './sightings.js';

/** Follows applied blocks and records the transactions that touch a watched address. */
export class AddressWatcher {
  private lastHeight: number | undefined;

  constructor(
    readonly watched: ReadonlySet<string>,
    private readonly store: SightingStore,
    private readonly counted: (sighting: Sighting) => void,
  ) {}

  async blockApplied(block: LedgerBlock): Promise<void> {
    const sightings = (block.transactions ?? []).flatMap((transaction) =>
      sightingsOf(transaction, block.height, this.watched),
    );
    await this.store.record(sightings);
    sightings.forEach(this.counted);
    this.lastHeight = block.height;
  }

  /** The height of the last block it looked at; undefined before the first. */
  get lastHeightSeen(): number | undefined {
    return this.lastHeight;
  }
}
