import type { EventBus, Logger } from '@lni/kernel';
import '../blocks/block-events.js';
import type { TransactionPool } from '../pool/transaction-pool.js';

/**
 * Keeps the pool in step with the chain, whoever changed it (peers, the forger, a fork
 * revert): applied blocks drop what they include or invalidate, reverted ones come back.
 * Returns the function that stops following.
 */
export function followChain(events: EventBus, pool: TransactionPool, logger: Logger): () => void {
  const offApplied = events.on('block.applied', ({ block }) => pool.onBlockApplied(block));
  const offReverted = events.on('block.reverted', async ({ block }) => {
    try {
      await pool.onBlocksReverted([block]);
    } catch (error) {
      logger.error(
        { err: error, height: block.height },
        'Pool could not take back a reverted block',
      );
    }
  });
  return () => {
    offApplied();
    offReverted();
  };
}
