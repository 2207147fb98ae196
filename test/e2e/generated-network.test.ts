import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { ApiClient, startNode, stopNode, type NodeDirs } from '../support/node-harness.js';

// What an operator does to try a network of their own: generate it, then start one core node on
// it with nothing else written by hand. Every delegate's secret is in its delegates.json.
describe('a network made with network:generate', () => {
  let root: string;
  let node: KernelProcess | undefined;
  let api: ApiClient;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-generated-network-'));
    const dirs: NodeDirs = { config: join(root, 'config'), data: join(root, 'data') };
    const generate = runKernel([
      'network:generate',
      '--network',
      'mynet',
      '--delegates',
      '5',
      '--blocktime',
      '2',
      '--config',
      dirs.config,
    ]);
    expect((await generate.exited()).code).toBe(0);
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    api = new ApiClient(`http://127.0.0.1:${apiPort}/api`);
    node = startNode('core', dirs, {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_PORT: String(p2pPort),
    });
    await eventually(() => api.get('/node/status'), 120_000, 'the API');
  }, 180_000);

  afterAll(async () => {
    await stopNode(node);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('forges on its own, without peers', async () => {
    const height = await api.reach(3, 60_000);
    expect(height).toBeGreaterThanOrEqual(3);
    expect(node?.stdout()).not.toContain('below its minimum network reach');
  }, 90_000);
});
