import type { TransactionData } from '@lni/crypto';
import type { EventBus } from '@lni/kernel';
import type { PoolListener } from './pool-announcer.js';

/**
 * Why a transaction left the pool: included in a block, dropped because it no longer applies
 * (or expired, or storage refused it), or evicted by a better-paying one when the pool was full.
 */
export type PoolRemovalReason = 'confirmed' | 'dropped' | 'evicted';

declare module '@lni/kernel' {
  interface EventMap {
    /** The pool took a transaction (`origin` as in PoolOrigin). */
    'transaction.pool.added': {
      readonly transaction: TransactionData;
      readonly origin: 'submitted' | 'peer' | 'restored';
    };
    /** A transaction announced as added left the pool. */
    'transaction.pool.removed': {
      readonly transaction: TransactionData;
      readonly reason: PoolRemovalReason;
    };
  }
}

/** The pool's announcements as events on the kernel's bus, one per transaction. */
export function poolEvents(events: EventBus): PoolListener {
  return {
    added(entries, origin) {
      for (const entry of entries) {
        events.emit('transaction.pool.added', { transaction: entry.tx, origin });
      }
    },
    removed(removals) {
      for (const { entry, reason } of removals) {
        events.emit('transaction.pool.removed', { transaction: entry.tx, reason });
      }
    },
  };
}
