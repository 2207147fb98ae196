import type { EventBus } from '@lni/kernel';
import type { PoolListener } from './pool-announcer.js';
import '../contracts/events.js';

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
