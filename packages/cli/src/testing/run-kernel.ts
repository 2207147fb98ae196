import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/kernel.js', import.meta.url));

export interface KernelProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout or stderr contains `text`; rejects after `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Who the command runs as (a test of permissions run by root runs it as another user). */
export interface KernelUser {
  readonly uid?: number;
  readonly gid?: number;
}

/** Spawns the built `kernel` command as an operator would, capturing its output. */
export function runKernel(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  user: KernelUser = {},
): KernelProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, CORE_LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  return watch(child);
}

/**
 * Runs the command on a pseudo-terminal, as an operator at a terminal sees it (util-linux
 * `script`); its output arrives on stdout with the terminal's line ends. `pid()` is the
 * command's own process, to signal it as a terminal would.
 */
export function runKernelOnTerminal(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  pidFile: string,
): KernelProcess & { pid(): Promise<number> } {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  const child = spawn(
    'script',
    [
      '--quiet',
      '--flush',
      '--return',
      '--command',
      `echo $$ > ${quote(pidFile)}; exec ${command}`,
      '/dev/null',
    ],
    { env: { ...process.env, CORE_LOG_LEVEL: 'debug', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const watched = watch(child);
  return {
    ...watched,
    async pid() {
      for (;;) {
        // Not written yet while the terminal starts: look again.
        const text = await readFile(pidFile, 'utf8').catch(() => '');
        if (text.trim() !== '') return Number(text);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

function watch(child: ChildProcess): KernelProcess {
  let out = '';
  let err = '';
  const waiters: { text: string; resolve: () => void; fail: (code: number | null) => void }[] = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      if (out.includes(waiter.text) || err.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    check();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    check();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      for (const waiter of waiters.splice(0)) waiter.fail(code);
      resolve({ code, signal });
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`timed out waiting for "${text}"; stdout: ${out}; stderr: ${err}`)),
          timeoutMs,
        );
        waiters.push({
          text,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
          fail: (code) => {
            clearTimeout(timer);
            reject(
              new Error(`exited with ${code} before "${text}"; stdout: ${out}; stderr: ${err}`),
            );
          },
        });
        check();
      });
    },
    exited: () => exit,
  };
}
