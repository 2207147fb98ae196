import { Histogram, type Registry } from 'prom-client';

/** Round trips of a forger to its relay, from 1 ms to 10 s: a slot is 8 s on ARK's networks. */
const ROUND_TRIP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * `lni_forger_relay_seconds{route}`: how long each request of the forger to its relay took
 * (answered or failed), what a busy relay costs the forger in its slot.
 */
export function relayRoundTrips(registry: Registry): (route: string, seconds: number) => void {
  const histogram = new Histogram({
    name: 'lni_forger_relay_seconds',
    help: 'Round trip of each forger request to its relay (getCurrentRound, getUnconfirmedTransactions, postBlock, …)',
    labelNames: ['route'],
    buckets: ROUND_TRIP_BUCKETS,
    registers: [registry],
  });
  return (route, seconds) => histogram.observe({ route }, seconds);
}
