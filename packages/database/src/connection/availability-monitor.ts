export interface AvailabilityMonitorDeps {
  /** Resolves when the database answers, rejects when it does not. */
  readonly probe: () => Promise<void>;
  readonly intervalMs: number;
  readonly onChange: (available: boolean, reason?: string) => void;
}

/**
 * Probes the database on an interval and reports each change between reachable and not,
 * once per change, so that the state plugin can pause block processing and resume.
 */
export class AvailabilityMonitor {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<boolean> | undefined;
  private current = true;

  constructor(private readonly deps: AvailabilityMonitorDeps) {}

  get available(): boolean {
    return this.current;
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.deps.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Probes now (concurrent callers share one probe) and resolves with the outcome. */
  check(): Promise<boolean> {
    this.checking ??= this.probeOnce().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async probeOnce(): Promise<boolean> {
    let reason: string | undefined;
    try {
      await this.deps.probe();
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    const available = reason === undefined;
    if (available !== this.current) {
      this.current = available;
      this.deps.onChange(available, reason);
    }
    return available;
  }
}
