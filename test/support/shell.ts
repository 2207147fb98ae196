import { runKernel } from '@lni/cli/testing';
import { spawn } from 'node:child_process';

/** Runs a command to its end, as an author at a shell would: its exit code and all it printed. */
export function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** A `kernel` command run to its end (warnings and worse logged), with what it printed. */
export async function kernel(args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = runKernel(args, { CORE_LOG_LEVEL: 'warn', ...env });
  const { code } = await run.exited();
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
