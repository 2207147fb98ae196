import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The node's Prometheus registry, one per application (not prom-client's global one), so that
 * several nodes in one process (tests) keep their figures apart. Plugins register their own
 * metrics on it; the API plugin serves it at `/metrics`. The kernel adds the process defaults
 * (CPU, memory, event loop lag, handles).
 */
export type MetricsRegistry = Registry;

/**
 * prom-client's metric types, from the copy the registry comes from: a plugin makes its metrics
 * with these (`new Gauge({ name, help, registers: [metrics] })`) without depending on prom-client.
 */
export { Counter, Gauge, Histogram, Summary } from 'prom-client';

export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
