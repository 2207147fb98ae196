import { performance } from 'node:perf_hooks';

/** Milliseconds spent in each named phase of a boot, in order, for one log line. */
export class PhaseClock {
  readonly #durations: Record<string, number> = {};
  #since = performance.now();

  /** Ends the phase that began at the previous `end` (or at construction). */
  end(phase: string): void {
    const now = performance.now();
    this.#durations[phase] = Math.round(now - this.#since);
    this.#since = now;
  }

  get durations(): Readonly<Record<string, number>> {
    return { ...this.#durations };
  }
}
