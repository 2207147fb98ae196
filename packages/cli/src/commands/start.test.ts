import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runKernel, type KernelProcess } from '../testing/run-kernel.js';

// A third-party plugin loaded from a path in app.json; it appends each lifecycle call to a file.
const recorder = `
import { appendFileSync } from 'node:fs';
import Joi from '${import.meta.resolve('joi')}';
export default {
  name: process.env.PLUGIN_NAME_OVERRIDE ?? 'recorder',
  configSchema: Joi.object({
    file: Joi.string().required(),
    id: Joi.string().required(),
    failBoot: Joi.boolean(),
    failDispose: Joi.boolean(),
    hangDispose: Joi.boolean(),
  }),
  register() {},
  async boot(ctx) {
    appendFileSync(ctx.options.file, 'boot ' + ctx.options.id + '\\n');
    if (ctx.options.failBoot) throw new Error('cannot bind port ' + ctx.options.id);
    ctx.logger.info({ id: ctx.options.id }, 'recorder booted');
  },
  async dispose(ctx) {
    appendFileSync(ctx.options.file, 'dispose ' + ctx.options.id + '\\n');
    if (ctx.options.hangDispose) await new Promise(() => {});
    if (ctx.options.failDispose) throw new Error('flush failed');
  },
};
`;
const makePlugin = (name: string, dependsOn: string[]) =>
  recorder
    .replace("process.env.PLUGIN_NAME_OVERRIDE ?? 'recorder'", JSON.stringify(name))
    .replace(
      'register() {},',
      `dependsOn: { required: ${JSON.stringify(dependsOn)} },\n  register() {},`,
    );

let dir: string;
let config: string;
let data: string;
let lifecycle: string;
let running: KernelProcess | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-start-'));
  config = join(dir, 'config');
  data = join(dir, 'data');
  lifecycle = join(dir, 'lifecycle.txt');
  await mkdir(join(config, 'plugins'), { recursive: true });
  await writeFile(join(config, 'plugins', 'store.mjs'), makePlugin('store', []));
  await writeFile(join(config, 'plugins', 'web.mjs'), makePlugin('web', ['store']));
});
afterEach(async () => {
  running?.child.kill('SIGKILL');
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function writeApp(plugins: { package: string; options: object }[], mode = 'relay') {
  await writeFile(join(config, 'app.json'), JSON.stringify({ [mode]: { plugins } }, null, 2));
}
const entry = (name: string, options: object = {}) => ({
  package: `./plugins/${name}.mjs`,
  options: { file: lifecycle, id: name, ...options },
});
const start = (mode = 'relay') => {
  running = runKernel(['start', '--mode', mode, '--config', config, '--data', data]);
  return running;
};

describe('kernel start', () => {
  it('starts the plugins of the mode in dependency order and stops them in reverse on SIGTERM', async () => {
    await writeApp([entry('web'), entry('store')]);
    const node = start();
    await node.waitFor('"msg":"Node started"');
    node.child.kill('SIGTERM');
    expect(await node.exited()).toEqual({ code: 0, signal: null });
    expect(await readFile(lifecycle, 'utf8')).toBe(
      'boot store\nboot web\ndispose web\ndispose store\n',
    );

    const log = await readFile(join(data, 'logs', 'node.log'), 'utf8');
    const records = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.find((record) => record.msg === 'Starting node')).toMatchObject({
      mode: 'relay',
      config,
      data,
      log: join(data, 'logs', 'node.log'),
      plugins: ['store', 'web'],
    });
    const booted = records.filter((record) => record.msg === 'recorder booted');
    expect(booted.map((record) => [record.plugin, record.id])).toEqual([
      ['store', 'store'],
      ['web', 'web'],
    ]);
    expect(records.at(-1)).toMatchObject({ msg: 'Stopped' });
  });

  it('exits non-zero when a plugin fails to dispose, after disposing the others', async () => {
    await writeApp([entry('store', { failDispose: true }), entry('web')]);
    const node = start();
    await node.waitFor('"msg":"Node started"');
    node.child.kill('SIGINT');
    expect((await node.exited()).code).toBe(1);
    expect(await readFile(lifecycle, 'utf8')).toContain('dispose web\ndispose store\n');
    expect(node.stdout()).toContain('"failed":["store"]');
  });

  it('a second signal exits at once when a plugin hangs in dispose', async () => {
    await writeApp([entry('store', { hangDispose: true })]);
    const node = start();
    await node.waitFor('"msg":"Node started"');
    node.child.kill('SIGTERM');
    await node.waitFor('"msg":"Shutting down"');
    node.child.kill('SIGTERM');
    expect((await node.exited()).code).toBe(130);
  });

  it('a plugin failing to boot stops the node with the cause after disposing what booted', async () => {
    await writeApp([entry('store'), entry('web', { failBoot: true })]);
    const node = start();
    expect((await node.exited()).code).toBe(1);
    expect(node.stderr()).toContain("error: plugin 'web' failed to boot: cannot bind port web");
    expect(await readFile(lifecycle, 'utf8')).toBe('boot store\nboot web\ndispose store\n');
  });

  it('stops on bad configuration with one line naming the cause, writing nothing to the data directory', async () => {
    const cases: [string, string | RegExp][] = [
      ['{ "relay": { "plugins": [ }', `${join(config, 'app.json')}:1:27: value expected`],
      [
        JSON.stringify({ relay: { plugins: [{ package: '@acme/absent' }] } }),
        `plugin package '@acme/absent' could not be found (looked from ${config}, `,
      ],
      [
        JSON.stringify({
          relay: { plugins: [{ package: './plugins/web.mjs', options: { verbose: 1 } }] },
        }),
        "plugin 'web' requires 'store', which is not enabled in mode 'relay'",
      ],
      [
        JSON.stringify({ core: { plugins: [] } }),
        `${join(config, 'app.json')}: mode 'relay' is not defined`,
      ],
    ];
    for (const [content, message] of cases) {
      await writeFile(join(config, 'app.json'), content);
      const node = start();
      const { code } = await node.exited();
      expect(code).toBe(1);
      const lines = node.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(message);
      expect(existsSync(data)).toBe(false);
    }
  });

  it('refuses an unknown mode, command or flag with exit code 2', async () => {
    for (const args of [
      ['start', '--mode', 'edge'],
      ['launch'],
      ['start', '--mode', 'core', '--turbo'],
    ]) {
      running = runKernel(args);
      expect((await running.exited()).code).toBe(2);
      expect(running.stderr().trim().split('\n')).toHaveLength(1);
    }
  });
});
