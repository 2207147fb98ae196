import { spawn, type ChildProcess } from 'node:child_process';
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

/** Spawns the built `kernel` command as an operator would, capturing its output. */
export function runKernel(args: readonly string[], env: NodeJS.ProcessEnv = {}): KernelProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, CORE_LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
