import { performance } from 'node:perf_hooks';

/** How often the event loop's lateness is sampled. */
const SAMPLE_MS = 50;

/**
 * Tells when the event loop is too far behind to take more requests: a timer is set every
 * `SAMPLE_MS`, and how late it fires (or, still pending, how late it already is) is the
 * loop's delay. Refusing new requests then, at once and before any database read, keeps the
 * admitted ones, the live feed's pushes and the block processing of a core node on time; a
 * load balancer sends the refused ones to another node.
 */
export class LoadShedding {
  #lateness = 0;
  #expected = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly maxEventLoopDelayMs: number) {}

  start(): void {
    if (this.maxEventLoopDelayMs <= 0 || this.#timer) return;
    this.#expected = performance.now() + SAMPLE_MS;
    this.#schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The loop's current delay in milliseconds when it is past the limit, else undefined. */
  overloadedBy(): number | undefined {
    if (this.#timer === undefined) return undefined;
    const delay = Math.max(this.#lateness, performance.now() - this.#expected);
    return delay > this.maxEventLoopDelayMs ? Math.round(delay) : undefined;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      const now = performance.now();
      this.#lateness = now - this.#expected;
      this.#expected = now + SAMPLE_MS;
      this.#schedule();
    }, SAMPLE_MS);
    // Never what keeps a process alive.
    this.#timer.unref();
  }
}
