import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Clock ticks per second, the unit of /proc/<pid>/stat's times. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** A process's parent and the CPU seconds (user and system, all threads) it used so far. */
function statOf(pid: number): { parent: number; cpuSeconds: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  // Fields after the command name, which may hold spaces and parentheses: state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    parent: Number(fields[1]),
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
  };
}

/** CPU seconds one process has used so far (Linux /proc). */
export function processCpuSeconds(pid: number): number {
  return statOf(pid)?.cpuSeconds ?? 0;
}

/**
 * CPU seconds a PostgreSQL server has used so far: its postmaster (the first line of
 * `postmaster.pid` in its data directory) and every process it started (the backends answering
 * queries, WAL replay and streaming on a standby). A backend that exited takes its time along.
 */
export function postgresCpuSeconds(dataDirectory: string): number {
  const postmaster = Number(
    readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  let total = processCpuSeconds(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat?.parent === postmaster) total += stat.cpuSeconds;
  }
  return total;
}
