import { spawn } from 'node:child_process';
import { KernelError } from '@lni/kernel';

/** npm's error lines that only qualify the one saying what went wrong. */
const DETAIL = /^(code|syscall|path|errno) /;

/** What npm wrote: its result on stdout, its warnings on stderr. */
export interface NpmOutput {
  readonly out: string;
  readonly err: string;
}

/**
 * Runs npm and resolves with its output; a failure is one line naming the npm command and
 * npm's own first error line, the rest of its output kept as the cause.
 */
export function runNpm(args: readonly string[], cwd: string): Promise<NpmOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', [...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) =>
      reject(new KernelError('ERR_NPM', `cannot run npm: ${error.message}`, { cause: error })),
    );
    child.on('close', (code) => {
      if (code === 0) {
        resolve({ out, err });
        return;
      }
      const errors = err
        .split('\n')
        .filter((line) => /^npm (error|ERR!)/.test(line))
        .map((line) => line.replace(/^npm (error|ERR!) ?/, '').trim());
      const reason = errors.find((line) => line !== '' && !DETAIL.test(line)) ?? `exit ${code}`;
      reject(
        new KernelError('ERR_NPM', `npm ${args[0]} failed: ${reason}`, { cause: new Error(err) }),
      );
    });
  });
}
