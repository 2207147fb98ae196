import { quantile } from '../../../test/support/quantile.js';

/** One line of the benchmark table. */
export interface BenchRow {
  readonly name: string;
  /** Operations (or items) per second, when the row measures throughput. */
  readonly opsPerSecond?: number;
  /** Latency percentiles in milliseconds, when the row measures single runs. */
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly note?: string;
}

/**
 * Ops/s of `run` (which performs `opsPerCall` operations), after a warm-up, for about `ms`: per
 * wall-clock second, and per second of this process's CPU time, which stays meaningful when
 * other processes share the cores.
 */
export function throughputWithCpu(
  run: () => void,
  opsPerCall = 1,
  ms = 1500,
): { perSecond: number; perCpuSecond: number } {
  const warmUntil = performance.now() + Math.min(300, ms / 4);
  while (performance.now() < warmUntil) run();
  let calls = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let elapsed = 0;
  do {
    run();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    perSecond: (calls * opsPerCall * 1000) / elapsed,
    perCpuSecond: (calls * opsPerCall * 1000) / cpuMs,
  };
}

/** Ops/s of `run` per wall-clock second (see throughputWithCpu). */
export function throughput(run: () => void, opsPerCall = 1, ms = 1500): number {
  return throughputWithCpu(run, opsPerCall, ms).perSecond;
}

/** Async variant of throughput. */
export async function throughputAsync(
  run: () => Promise<unknown>,
  opsPerCall: number,
  ms = 1500,
): Promise<number> {
  await run();
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    await run();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return (calls * opsPerCall * 1000) / elapsed;
}

/** p50 and p99 of `runs` timed calls of `run`, in milliseconds, after two warm-up calls. */
export async function latency(
  run: () => unknown,
  runs: number,
): Promise<{ p50Ms: number; p99Ms: number }> {
  await run();
  await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return { p50Ms: quantile(samples, 0.5), p99Ms: quantile(samples, 0.99) };
}

/** The benchmark table, aligned for a terminal. */
export function formatTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((row) => [
    row.name,
    row.opsPerSecond === undefined ? '' : Math.round(row.opsPerSecond).toLocaleString('en-US'),
    row.p50Ms === undefined ? '' : row.p50Ms.toFixed(2),
    row.p99Ms === undefined ? '' : row.p99Ms.toFixed(2),
    row.note ?? '',
  ]);
  const header = ['benchmark', 'ops/s', 'p50 ms', 'p99 ms', 'note'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]!.length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, column) =>
        column === 0 || column === 4
          ? value.padEnd(widths[column]!)
          : value.padStart(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [
    line(header),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...cells.map(line),
  ].join('\n');
}
