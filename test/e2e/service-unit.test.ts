import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The [Service] settings of the systemd unit the root README shows. */
async function readmeUnit(): Promise<Map<string, string>> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```ini\n([\s\S]*?)```/g)]
    .map((match) => match[1] as string)
    .find((text) => text.includes('[Service]'));
  if (block === undefined) throw new Error('README.md shows no systemd unit');
  const settings = new Map<string, string>();
  for (const line of block.split('\n')) {
    const setting = /^(\w+)=(.*)$/.exec(line);
    if (setting) settings.set(setting[1] as string, setting[2] as string);
  }
  return settings;
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * Runs a command in a process group of its own, as systemd runs a service, until it logs that
 * the node started; then signals the whole group (systemd's default KillMode, a terminal's
 * Ctrl-C) and resolves with how the command ended.
 */
async function runAndStop(
  command: readonly string[],
  cwd: string,
  signal: NodeJS.Signals,
): Promise<Exit> {
  const child = spawn(command[0] as string, command.slice(1), {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CORE_LOG_LEVEL: 'info' },
  });
  let output = '';
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"Node started"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, ended) => resolve({ code, signal: ended })),
  );
  await started;
  process.kill(-(child.pid as number), signal);
  return exited;
}

describe("the README's systemd unit", () => {
  let dir: string;
  let config: string;
  let data: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lni-service-unit-'));
    config = join(dir, 'config');
    data = join(dir, 'data');
    await mkdir(config, { recursive: true });
    // A relay of no plugins: the point is how the command exits, not what the node runs.
    await writeFile(join(config, 'app.json'), JSON.stringify({ relay: { plugins: [] } }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const place = (text: string) =>
    text
      .replaceAll('/opt/lni/', root)
      .replaceAll('/opt/lni', root)
      .replaceAll('/etc/lni', config)
      .replaceAll('/var/lib/lni', data);

  it('runs a command that exits 0 when systemctl stop sends SIGTERM', async () => {
    const unit = await readmeUnit();
    const execStart = unit.get('ExecStart');
    expect(execStart).toMatch(/node_modules\/\.bin\/kernel start/);
    const command = place(execStart as string).split(/\s+/);
    const cwd = place(unit.get('WorkingDirectory') ?? root);
    expect(await runAndStop(command, cwd, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(await runAndStop(command, cwd, 'SIGINT')).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('is needed: npx ends by the signal itself, hiding the exit code of the node', async () => {
    const command = ['npx', 'kernel', 'start', '--mode', 'relay', '--config', config];
    const stop = (signal: NodeJS.Signals) => runAndStop([...command, '--data', data], root, signal);
    expect(await stop('SIGTERM')).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await stop('SIGINT')).toEqual({ code: null, signal: 'SIGINT' });
  }, 120_000);
});
