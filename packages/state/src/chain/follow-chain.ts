import type { EventBus, Logger } from '@lni/kernel';
import '../blocks/block-events.js';
import type { FullBlock } from '../blocks/block-store.js';
import type { TransactionPool } from '../pool/transaction-pool.js';

/**
 * Keeps the pool in step with the chain, whoever changed it (peers, the forger, a fork
 * revert): applied blocks drop what they include or invalidate, reverted ones come back.
 * Returns the function that stops following.
 */
export function followChain(events: EventBus, pool: TransactionPool, logger: Logger): () => void {
  const offApplied = events.on('block.applied', ({ block }) => pool.onBlockApplied(block));
  // A revert of several blocks announces them one by one, newest first, after state went back
  // below all of them: the pool takes them back together, oldest first, or a sender's later
  // nonces would be judged before the earlier ones they follow.
  let batch: { readonly blocks: FullBlock[]; readonly done: Promise<void> } | undefined;
  const offReverted = events.on('block.reverted', ({ block }) => {
    if (!batch) {
      const blocks: FullBlock[] = [];
      const done = Promise.resolve().then(async () => {
        batch = undefined;
        try {
          await pool.onBlocksReverted(blocks);
        } catch (error) {
          logger.error(
            { err: error, heights: blocks.map((reverted) => reverted.height) },
            'Pool could not take back reverted blocks',
          );
        }
      });
      batch = { blocks, done };
    }
    batch.blocks.push(block);
    return batch.done;
  });
  return () => {
    offApplied();
    offReverted();
  };
}
