import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { scrape, valueOf } from '../support/prometheus.js';

const readme = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The fenced blocks of one README section, in order, with their language. */
async function fencedBlocks(heading: string): Promise<{ lang: string; code: string }[]> {
  const text = await readFile(readme, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "${heading}"`);
  const end = text.indexOf('\n### ', start + heading.length + 2);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({
    lang: match[1] as string,
    code: match[2] as string,
  }));
}

// "Writing a plugin": the example copied as written into a node's config directory, listed in
// app.json as the README says, and a real node started with it.
describe("the README's plugin example in a running node", () => {
  let root: string;
  let config: string;
  let node: KernelProcess;
  let apiPort: number;
  let base: string;

  beforeAll(async () => {
    const blocks = await fencedBlocks('### A plugin in the config directory');
    const plugin = blocks.find(({ lang }) => lang === 'js');
    const entry = blocks.find(({ lang }) => lang === 'json');
    if (!plugin || !entry) throw new Error('the README example lost its js or json block');
    expect(plugin.code.split('\n')[0]).toContain('<config>/plugins/block-watch/index.mjs');

    root = await mkdtemp(join(tmpdir(), 'lni-readme-plugin-'));
    config = join(root, 'config');
    const publish = runKernel(['config:publish', '--config', config]);
    expect((await publish.exited()).code).toBe(0);
    await mkdir(join(config, 'plugins', 'block-watch'), { recursive: true });
    await writeFile(join(config, 'plugins', 'block-watch', 'index.mjs'), plugin.code);
    const appFile = join(config, 'app.json');
    const app = JSON.parse(await readFile(appFile, 'utf8')) as {
      core: { plugins: unknown[] };
    };
    app.core.plugins.push(JSON.parse(entry.code));
    await writeFile(appFile, JSON.stringify(app, null, 2));

    apiPort = await freePort();
    base = `http://127.0.0.1:${apiPort}`;
    node = runKernel(
      ['start', '--mode', 'core', '--config', config, '--data', join(root, 'data')],
      {
        CORE_API_PORT: String(apiPort),
        // Not the default 4000: the in-process forger follows the node's own P2P port.
        CORE_P2P_PORT: String(await freePort()),
        CORE_LOG_LEVEL: 'info',
      },
    );
  });
  afterAll(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited();
    await rm(root, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (path: string): Promise<any> => {
    const response = await fetch(`${base}${path}`);
    if (!response.ok && response.status !== 503) throw new Error(`${path}: ${response.status}`);
    return response.json();
  };

  it('answers GET /api/block-watch with the last block the node applied', async () => {
    const watched = await eventually(
      async () => {
        const { data } = await get('/api/block-watch');
        return data?.height >= 2 ? data : undefined;
      },
      180_000,
      'a forged block seen by block-watch',
    );
    expect(watched).toEqual({
      height: expect.any(Number),
      id: expect.stringMatching(/^\w+$/),
      seenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.+Z$/),
    });
    const last = (await get('/api/blocks/last')).data;
    expect(last.height).toBeGreaterThanOrEqual(watched.height);
  }, 240_000);

  it('adds its check to /health and its gauge to /metrics', async () => {
    const health = await get('/health');
    expect(health.checks['block-watch']).toEqual({ ok: true, height: expect.any(Number) });
    const families = await scrape(`${base}/metrics`);
    expect(valueOf(families, 'block_watch_height')).toBeGreaterThanOrEqual(2);
  });

  it('offers kernel block-watch:last, which asks the running node', async () => {
    const help = runKernel(['--help', '--config', config]);
    await help.exited();
    expect(help.stdout()).toContain('block-watch:last');
    const last = runKernel([
      'block-watch:last',
      '--api',
      base,
      '--config',
      config,
      '--data',
      join(root, 'data'),
    ]);
    expect((await last.exited()).code).toBe(0);
    expect(last.stdout()).toMatch(/^height \d+, block \w+, seen at \d{4}-\d\d-\d\dT\S+Z\n$/);
  });
});
