import type { RouteName } from '../wire/routes.js';
import { ARK_GLOBAL_RATE_LIMIT, ARK_RATE_LIMITS, type RateLimit } from './ark-rate-limits.js';

/** Send times of one key in a sliding window: a queue read from `head`, compacted as it goes. */
interface Window {
  times: number[];
  head: number;
}

/**
 * Keeps our own requests to each peer under ARK's incoming limits, so an ARK peer never closes
 * our connection for flooding it: a request that would exceed a limit waits its turn. Peers are
 * keyed by address (`ip:port`): one per IP on a real network, several on a test machine.
 */
export class OutgoingThrottle {
  /** Send times per `peer route` key (and per peer for the global limit). */
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limits: Readonly<Partial<Record<RouteName, RateLimit>>> = ARK_RATE_LIMITS,
    private readonly global: RateLimit = ARK_GLOBAL_RATE_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when a request of `route` to `peer` may go, and counts it. */
  async take(peer: string, route: RouteName): Promise<void> {
    const routeLimit = this.limits[route];
    for (;;) {
      const wait = Math.max(
        this.waitFor(peer, this.global),
        routeLimit ? this.waitFor(`${peer} ${route}`, routeLimit) : 0,
      );
      if (wait <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const at = this.now();
    this.record(peer, at);
    if (routeLimit) this.record(`${peer} ${route}`, at);
  }

  /** Forgets a peer we no longer talk to. */
  forget(peer: string): void {
    for (const key of [...this.windows.keys()]) {
      if (key === peer || key.startsWith(`${peer} `)) this.windows.delete(key);
    }
  }

  private waitFor(key: string, limit: RateLimit): number {
    const window = this.windows.get(key);
    if (!window) return 0;
    const windowMs = limit.durationSeconds * 1000;
    const now = this.now();
    const { times } = window;
    while (window.head < times.length && (times[window.head] as number) <= now - windowMs) {
      window.head += 1;
    }
    if (window.head > 1024 && window.head * 2 > times.length) {
      window.times = times.slice(window.head);
      window.head = 0;
    }
    if (window.times.length - window.head < limit.points) return 0;
    // A little past the window's end, so the peer's own clock has let the oldest one go too.
    return (window.times[window.head] as number) + windowMs - now + 25;
  }

  private record(key: string, at: number): void {
    const window = this.windows.get(key);
    if (window) window.times.push(at);
    else this.windows.set(key, { times: [at], head: 0 });
  }
}
