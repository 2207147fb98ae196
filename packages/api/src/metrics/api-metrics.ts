import { Counter, Histogram, type Registry } from 'prom-client';

/** Seconds: a cached answer takes a millisecond, an uncached SQL page a few hundred. */
const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Requests the public API answered, by route template (`/api/wallets/{id}`, never the raw path,
 * so the number of series stays bounded) and status.
 */
export class ApiMetrics {
  private readonly requests: Counter<'route' | 'status'>;
  private readonly durations: Histogram<'route'>;
  private readonly shedRequests: Counter;

  constructor({ metrics }: { readonly metrics: Registry }) {
    this.requests = new Counter({
      name: 'lni_api_requests_total',
      help: 'Requests the public API answered, by route template and HTTP status',
      labelNames: ['route', 'status'],
      registers: [metrics],
    });
    this.durations = new Histogram({
      name: 'lni_api_request_seconds',
      help: 'Time from receiving a request to sending its answer, by route template',
      labelNames: ['route'],
      buckets: REQUEST_BUCKETS,
      registers: [metrics],
    });
    // Apart from the requests by route: a shed request is refused before it is routed.
    this.shedRequests = new Counter({
      name: 'lni_api_shed_requests_total',
      help: 'Requests refused with 503 at once because the event loop was past maxEventLoopDelayMs',
      registers: [metrics],
    });
  }

  observe(route: string, status: number, seconds: number): void {
    this.requests.inc({ route, status: String(status) });
    this.durations.observe({ route }, seconds);
  }

  shed(): void {
    this.shedRequests.inc();
  }
}
