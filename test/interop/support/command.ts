import { execFile, execFileSync } from 'node:child_process';

/** Runs a command to completion; rejects with its stderr when it exits non-zero. */
export function command(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || error.message}`));
      } else {
        resolve(stdout);
      }
    });
  });
}

/** The synchronous form, for process exit handlers, which cannot wait. */
export function commandSync(file: string, args: readonly string[]): string {
  return execFileSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

export const ip = (...args: string[]): Promise<string> => command('ip', args);
