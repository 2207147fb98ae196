import type { BlockHook } from './block-hook.js';
import type { FullBlock } from './block-store.js';

/** All coins in existence: the genesis block's amounts plus every block reward since. */
export class SupplyCounter implements BlockHook {
  #supply = 0n;

  get value(): bigint {
    return this.#supply;
  }

  /** Starts at a supply read from storage (a load of the wallet table instead of a replay). */
  restore(supply: bigint): void {
    this.#supply = supply;
  }

  applied(block: FullBlock): void {
    this.#supply += block.reward + (block.height === 1 ? block.totalAmount : 0n);
  }

  reverted(block: FullBlock): void {
    this.#supply -= block.reward + (block.height === 1 ? block.totalAmount : 0n);
  }
}
