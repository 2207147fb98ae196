import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

export interface NamespacedProcessOptions {
  readonly namespace: string;
  readonly file: string;
  readonly args: readonly string[];
  /** The whole environment: nothing of the test process's is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** stdout and stderr are appended here. */
  readonly logFile: string;
}

/**
 * A process started with `ip netns exec` as the leader of its own process group. ARK's CLI
 * re-executes itself in a child (to preload jemalloc), so signals go to the whole group, and
 * stopping waits until no member of the group is left.
 */
export class NamespacedProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  static start(options: NamespacedProcessOptions): NamespacedProcess {
    const log = openSync(options.logFile, 'a');
    try {
      const child = spawn(
        'ip',
        ['netns', 'exec', options.namespace, options.file, ...options.args],
        { cwd: options.cwd, env: { ...options.env }, detached: true, stdio: ['ignore', log, log] },
      );
      return new NamespacedProcess(child);
    } finally {
      closeSync(log);
    }
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('process did not start');
    return this.child.pid;
  }

  /** True while the started process has not exited. */
  running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGTERM to the group, then SIGKILL after `graceMs`; resolves once the group is gone. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.child.pid === undefined) return;
    signalGroup(this.child.pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (liveMembers(this.child.pid) > 0 && Date.now() < deadline) await delay(200);
    if (liveMembers(this.child.pid) > 0) {
      signalGroup(this.child.pid, 'SIGKILL');
      while (liveMembers(this.child.pid) > 0) await delay(100);
    }
  }

  /** For exit handlers. */
  killSync(): void {
    if (this.child.pid !== undefined) signalGroup(this.child.pid, 'SIGKILL');
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Members of process group `pgid` that are not zombies (a zombie needs no stopping). */
function liveMembers(pgid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the command name, which may itself hold spaces and parentheses.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') count++;
  }
  return count;
}
