import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KERNEL_VERSION } from '@lni/kernel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runKernel, type KernelProcess } from '../testing/run-kernel.js';

// Plugins in the config directory import awilix and joi by their bare names, as an author
// writes them: the node hands them its own copies.
const plugin = (body: string) => `import { asFunction, asValue } from 'awilix';
import Joi from 'joi';
export default {
  configSchema: Joi.object({}),
  register() {},
  ${body}
};
`;

let dir: string;
let config: string;
let data: string;
let running: KernelProcess | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-start-plugins-'));
  config = join(dir, 'config');
  data = join(dir, 'data');
  await mkdir(join(config, 'plugins'), { recursive: true });
});
afterEach(async () => {
  running?.child.kill('SIGKILL');
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function writePlugins(plugins: Record<string, string>): Promise<void> {
  for (const [name, source] of Object.entries(plugins)) {
    await writeFile(join(config, 'plugins', `${name}.mjs`), source);
  }
  const entries = Object.keys(plugins).map((name) => ({ package: `./plugins/${name}.mjs` }));
  await writeFile(join(config, 'app.json'), JSON.stringify({ relay: { plugins: entries } }));
}

function start(): KernelProcess {
  running = runKernel(['start', '--mode', 'relay', '--config', config, '--data', data]);
  return running;
}

/** The node stops with exit code 1 and one line on stderr, having written nothing. */
async function refusal(): Promise<string> {
  const node = start();
  expect((await node.exited()).code).toBe(1);
  const lines = node.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(existsSync(data)).toBe(false);
  return lines[0] as string;
}

const store = plugin(`name: 'store',
  register({ container }) { container.register({ pool: asValue({ kind: 'memory' }) }); },`);

describe('kernel start with plugins that get the kernel wrong', () => {
  it('refuses a plugin registering a name the kernel provides', async () => {
    await writePlugins({
      metrics: plugin(`name: 'metrics',
        register({ container }) { container.register({ metrics: asValue({}) }); },`),
    });
    expect(await refusal()).toBe(
      "error: plugin 'metrics' registers 'metrics', which the kernel provides: choose another name, or declare replaces: ['metrics'] to replace it on purpose",
    );
  });

  it("refuses a plugin registering another plugin's name, naming both", async () => {
    await writePlugins({
      store,
      cache: plugin(`name: 'cache', dependsOn: { required: ['store'] },
        register({ container }) { container.register({ pool: asValue({ kind: 'redis' }) }); },`),
    });
    expect(await refusal()).toBe(
      "error: plugin 'cache' registers 'pool', which plugin 'store' provides: choose another name, or declare replaces: ['pool'] to replace it on purpose",
    );
  });

  it('refuses replaces naming a service no plugin registered before it', async () => {
    await writePlugins({
      cache: plugin(`name: 'cache', replaces: ['pool'],
        register({ container }) { container.register({ pool: asValue({ kind: 'redis' }) }); },`),
      store,
    });
    expect(await refusal()).toBe(
      "error: plugin 'cache' declares replaces: ['pool'], but no plugin registered 'pool' before it: name its provider in dependsOn so that it registers first, or drop 'pool' from replaces",
    );
  });

  it('runs a plugin that replaces a service on purpose, and logs the replacement', async () => {
    await writePlugins({
      store,
      cache: plugin(`name: 'cache', dependsOn: { required: ['store'] }, replaces: ['pool'],
        register({ container }) { container.register({ pool: asValue({ kind: 'redis' }) }); },
        async boot({ container, logger }) { logger.info({ kind: container.cradle.pool.kind }, 'Pool in use'); },`),
    });
    const node = start();
    await node.waitFor('"msg":"Node started"');
    expect(node.stdout()).toMatch(
      /"service":"pool","plugin":"cache","owner":"store".*"msg":"Service replaced"/,
    );
    expect(node.stdout()).toMatch(/"kind":"redis".*"msg":"Pool in use"/);
  });

  it('names the plugin whose service failed to construct, not the plugin that resolved it', async () => {
    await writePlugins({
      store: plugin(`name: 'store',
        register({ container }) {
          container.register({ pool: asFunction(() => { throw new Error('pool.json is corrupt'); }).singleton() });
        },`),
      web: plugin(`name: 'web', dependsOn: { required: ['store'] },
        async boot({ container }) { return container.cradle.pool; },`),
    });
    const node = start();
    expect((await node.exited()).code).toBe(1);
    expect(node.stderr()).toBe(
      "error: plugin 'web' failed to boot: service 'pool' of plugin 'store' failed: pool.json is corrupt\n",
    );
    expect(node.stdout()).toMatch(/"culprit":"store".*"msg":"Plugin failed to boot"/);
  });
});

describe('kernel start with plugins that cannot load', () => {
  const appFile = () => join(config, 'app.json');

  it('refuses a plugin whose package supports other kernel versions', async () => {
    await mkdir(join(config, 'plugins', 'old'));
    await writeFile(
      join(config, 'plugins', 'old', 'package.json'),
      JSON.stringify({
        name: 'old',
        type: 'module',
        peerDependencies: { '@lni/kernel': '^9.0.0' },
      }),
    );
    await writeFile(join(config, 'plugins', 'old', 'index.js'), plugin("name: 'old-timer',"));
    await writeFile(
      appFile(),
      JSON.stringify({ relay: { plugins: [{ package: './plugins/old/index.js' }] } }),
    );
    expect(await refusal()).toBe(
      `error: ${appFile()}, mode 'relay': plugin 'old-timer' (./plugins/old/index.js) supports @lni/kernel ^9.0.0, but this node runs @lni/kernel ${KERNEL_VERSION}`,
    );
  });

  it('refuses a plugin with a syntax error, saying where it is', async () => {
    await writePlugins({ typo: plugin("name: 'typo',\n  register() {,") });
    expect(await refusal()).toMatch(
      new RegExp(
        `^error: ${appFile()}, mode 'relay': plugin './plugins/typo.mjs' failed to load: SyntaxError: .+ \\(${join(config, 'plugins', 'typo.mjs')}:\\d+\\)$`,
      ),
    );
  });

  it('refuses a plugin whose dependency is missing, naming it', async () => {
    await writePlugins({ pad: `import pad from 'left-pad';\n${plugin("name: 'pad',")}` });
    expect(await refusal()).toBe(
      `error: ${appFile()}, mode 'relay': plugin './plugins/pad.mjs' failed to load: Cannot find package 'left-pad' imported from ${join(config, 'plugins', 'pad.mjs')}`,
    );
  });
});
