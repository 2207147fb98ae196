import type { EventBus, Logger } from '@lni/kernel';
import type { Registry } from 'prom-client';
import { doubleSignsPrevented } from '../metrics/double-sign-metrics.js';
import { DoubleSignGuard } from './double-sign-guard.js';
import { DOUBLE_SIGN_PREVENTED } from './guard-events.js';
import { SigningRecord, signingRecordPath } from './signing-record.js';

/**
 * The guard as the plugin runs it: its record in the node's data directory, each prevented
 * double sign counted on the metrics registry and published on the event bus.
 */
export function createDoubleSignGuard(deps: {
  readonly dataDirectory: string;
  readonly metrics: Registry;
  readonly events: EventBus;
  readonly logger: Logger;
  readonly startupWaitMs: number;
}): DoubleSignGuard {
  const count = doubleSignsPrevented(deps.metrics);
  return new DoubleSignGuard({
    record: new SigningRecord(signingRecordPath(deps.dataDirectory)),
    logger: deps.logger,
    startupWaitMs: deps.startupWaitMs,
    report: (prevented) => {
      count(prevented.delegate);
      deps.events.emit(DOUBLE_SIGN_PREVENTED, prevented);
    },
  });
}
