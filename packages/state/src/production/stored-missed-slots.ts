import type { Service } from '@lni/database';
import type { MissedSlotStorage } from '../storage/missed-slot-storage.js';
import type { MissedSlotTracker } from './missed-slots.js';

/**
 * After the boot replay: the replay recounted every missed slot from the chain, so when the
 * table holds another number (a database from before missed slots were kept, or restored from
 * a backup) it is written anew from the replay. Resolves with the rows written (0: it agreed).
 */
export async function storeMissedSlots(
  storage: Pick<Service<MissedSlotStorage>, 'count' | 'replaceAll'>,
  tracker: Pick<MissedSlotTracker, 'total' | 'all'>,
): Promise<number> {
  if ((await storage.count()) === tracker.total) return 0;
  const slots = tracker.all();
  await storage.replaceAll(slots);
  return slots.length;
}
