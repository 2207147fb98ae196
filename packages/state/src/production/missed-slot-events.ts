import type { EventBus } from '@lni/kernel';
import { Counter, type Registry } from 'prom-client';
import '../contracts/events.js';
import type { MissedSlotLog } from './missed-slots.js';

/**
 * Publishes `forger.missing` for each slot missed before a block as it is applied (not during
 * the boot replay, which is history), and counts them in lni_forger_missed_slots_total by
 * delegate username.
 */
export function publishMissedSlots(deps: {
  readonly events: EventBus;
  readonly log: MissedSlotLog;
  readonly metrics: Registry;
  readonly username: (publicKey: string) => string | undefined;
}): () => void {
  const counter = new Counter({
    name: 'lni_forger_missed_slots_total',
    help: 'Slots delegates let pass without a block since the node started, by delegate username',
    labelNames: ['delegate'],
    registers: [deps.metrics],
  });
  return deps.events.on('block.applied', ({ block }) => {
    for (const missed of deps.log.missedAt(block.height)) {
      counter.inc({ delegate: deps.username(missed.publicKey) ?? missed.publicKey });
      deps.events.emit('forger.missing', {
        height: missed.height,
        round: missed.round,
        slot: missed.slot,
        timestamp: missed.timestamp,
        delegate: missed.publicKey,
      });
    }
  });
}
