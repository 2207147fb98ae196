import { randomBytes } from 'node:crypto';

/**
 * Everything a run creates outside its own process (namespaces, databases, temporary
 * directories) is named `lniop-<pid>-<tag>…`, so a later run can tell the leftovers of a run
 * whose process is gone from those of a run still going, and remove only the former.
 */
export const PREFIX = 'lniop';

export interface RunName {
  readonly pid: number;
  /** `lniop-<pid>-<tag>`: unique per run. */
  readonly id: string;
}

export function newRunName(pid = process.pid): RunName {
  return { pid, id: `${PREFIX}-${pid}-${randomBytes(3).toString('hex')}` };
}

/** The pid of the run that created `name` (a namespace, a database with `_` for `-`). */
export function ownerOf(name: string): number | undefined {
  const match = new RegExp(`^${PREFIX}[-_](\\d+)[-_][0-9a-f]{6}`).exec(name);
  return match ? Number(match[1]) : undefined;
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True for names this harness creates whose run process no longer exists. */
export function isLeftover(name: string): boolean {
  const owner = ownerOf(name);
  return owner !== undefined && !processIsAlive(owner);
}
