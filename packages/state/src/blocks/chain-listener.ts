import type { FullBlock } from './block-store.js';

/**
 * Told of every change to the chain by the block processor, in the order they happen, after
 * the change is stored and its events are out, and before the processor takes its next call:
 * a listener never sees state ahead of or behind what it was told. The transaction pool is one.
 */
export interface ChainListener {
  /** A block was applied and stored. */
  blockApplied(block: FullBlock): void;
  /**
   * Blocks were reverted, `blocks` oldest first (the order they had been applied in); state
   * is back below the oldest. The processor waits for the returned promise.
   */
  blocksReverted(blocks: readonly FullBlock[]): Promise<void>;
}
