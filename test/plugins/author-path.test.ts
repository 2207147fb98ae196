import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { kernel, sh } from '../support/shell.js';

// From outside the repository: `kernel plugin:new`, then what its README says, then the node.
describe("a plugin author's path", () => {
  let root: string;
  let plugin: string;
  let config: string;
  let data: string;
  let node: KernelProcess | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-author-'));
    plugin = join(root, 'address-watch');
    config = join(root, 'config');
    data = join(root, 'data');
  });
  afterAll(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited();
    await rm(root, { recursive: true, force: true });
  });

  it('kernel plugin:new writes a package that installs, builds and passes its tests as generated', async () => {
    const created = await kernel(['plugin:new', 'address-watch', '--dir', plugin]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const manifest = JSON.parse(await readFile(join(plugin, 'package.json'), 'utf8'));
    expect(manifest.peerDependencies).toMatchObject({
      '@lni/kernel': expect.stringMatching(/^\^/),
    });
    expect(manifest.devDependencies['@lni/kernel']).toMatch(/^file:packs\/lni-kernel-.+\.tgz$/);

    const install = await sh('npm', ['install', '--no-audit', '--no-fund'], plugin);
    expect(install.code, install.out).toBe(0);
    expect(install.out).not.toContain('install-scripts');
    const build = await sh('npm', ['run', 'build'], plugin);
    expect(build.code, build.out).toBe(0);
    expect(existsSync(join(plugin, 'dist', 'index.d.ts'))).toBe(true);
    const test = await sh('npm', ['test'], plugin, { FORCE_COLOR: '0', NO_COLOR: '1' });
    expect(test.code, test.out).toBe(0);
    expect(test.out).toMatch(/Tests\s+3 passed/);
  });

  it('kernel plugin:add installs it into the config directory and lists it in every mode', async () => {
    const added = await kernel(['plugin:add', plugin, '--config', config]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(
      `Installed address-watch@0.1.0 (plugin 'address-watch') into ${join(config, 'plugins')}`,
    );
    expect(added.stdout).toContain('for core, relay, forger');
    const app = JSON.parse(await readFile(join(config, 'app.json'), 'utf8'));
    for (const mode of ['core', 'relay', 'forger']) {
      expect(app[mode].plugins).toContainEqual({ package: 'address-watch', options: {} });
    }
    // Installed as a copy, without its development dependencies nor the peers the node provides.
    const installed = join(config, 'plugins', 'node_modules');
    expect(existsSync(join(installed, 'address-watch', 'dist', 'index.js'))).toBe(true);
    for (const absent of ['@lni/kernel', 'awilix', 'joi', 'vitest']) {
      expect(existsSync(join(installed, absent))).toBe(false);
    }
  });

  it('runs in a node: its health check in /health, its command from the CLI', async () => {
    const apiPort = await freePort();
    node = runKernel(['start', '--mode', 'relay', '--config', config, '--data', data], {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_PORT: String(await freePort()),
      CORE_LOG_LEVEL: 'info',
    });
    await node.waitFor('"msg":"Node started"', 180_000);
    const health = await eventually(
      async () =>
        (await (await fetch(`http://127.0.0.1:${apiPort}/health`)).json()) as {
          checks: Record<string, unknown>;
        },
      30_000,
      '/health',
    );
    expect(health.checks['address-watch']).toEqual({ ok: true, greeted: 0 });

    const greet = await kernel(
      ['address-watch:greet', 'Ada', '--shout', '--config', config, '--data', data],
      { ADDRESS_WATCH_GREETING: 'Hey' },
    );
    expect(greet).toEqual({ code: 0, stdout: 'HEY, ADA!\n', stderr: '' });
    const help = await kernel(['--help', '--config', config]);
    expect(help.stdout).toContain('address-watch:greet');

    node.child.kill('SIGTERM');
    expect((await node.exited()).code).toBe(0);
    node = undefined;
  });

  it('kernel plugin:remove takes it out of app.json and uninstalls it', async () => {
    const removed = await kernel(['plugin:remove', 'address-watch', '--config', config]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(join(config, 'app.json'), 'utf8')).not.toContain('address-watch');
    expect(existsSync(join(config, 'plugins', 'node_modules', 'address-watch'))).toBe(false);
  });
});
