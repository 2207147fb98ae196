import type { KernelProcess } from '@lni/cli/testing';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import {
  ApiClient,
  blocktimeMs,
  contiguousHeights,
  startNode,
  stopNode,
  type NodeDirs,
} from '../support/node-harness.js';

interface AppJson {
  [mode: string]: { plugins: { package: string; options?: Record<string, unknown> }[] };
}

/** Sets the state plugin's `walletTable.load` in every mode of `<config>/app.json`. */
async function setWalletTableLoad(configDir: string, load: boolean): Promise<void> {
  const file = join(configDir, 'app.json');
  const app = JSON.parse(await readFile(file, 'utf8')) as AppJson;
  for (const { plugins } of Object.values(app)) {
    for (const plugin of plugins) {
      if (plugin.package === '@lni/state')
        plugin.options = { ...plugin.options, walletTable: { load } };
    }
  }
  await writeFile(file, JSON.stringify(app));
}

// An operator stops a core node (SIGTERM, as systemd or docker does) and starts it again: its
// wallets come from the wallets table (the default), or from a replay of the chain.
describe.each([
  { path: 'loaded', load: true, line: 'State loaded' },
  { path: 'rebuilt', load: false, line: 'State rebuilt' },
])('a core node restarted, state $path', ({ load, line }) => {
  let root: string;
  let dirs: NodeDirs;
  let env: NodeJS.ProcessEnv;
  let node: KernelProcess | undefined;
  let api: ApiClient;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-restart-'));
    dirs = { config: join(root, 'config'), data: join(root, 'data') };
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    env = {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_PORT: String(p2pPort),
    };
    api = new ApiClient(`http://127.0.0.1:${apiPort}/api`);
    node = startNode('core', dirs, env);
    await eventually(() => api.get('/node/status'), 60_000, 'the API');
  }, 90_000);

  afterAll(async () => {
    await stopNode(node);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('keeps its chain and forges on from where it stopped', async () => {
    await api.reach(3, 60_000);
    const transfer = await api.postTransfer(dirs.config, 'restart recipient', 77);
    await eventually(
      async () =>
        (await api.get(`/transactions?address=${transfer.recipient}`)).meta.totalCount > 0 ||
        undefined,
      30_000,
      'the transfer in a block',
    );
    const before = await api.allBlocks();
    expect(await stopNode(node)).toBe(0);

    await setWalletTableLoad(dirs.config, load);
    node = startNode('core', dirs, env);
    // A restart on existing config does not publish the defaults again.
    await eventually(() => api.get('/node/status'), 60_000, 'the restarted API');
    expect(node.stdout()).not.toContain('First run');
    expect(node.stdout()).toContain(line);
    expect(node.stdout()).not.toContain('Wallet table not usable');
    const last = before[before.length - 1]!;
    await api.reach(last.height + 2, 3 * blocktimeMs(dirs.config) + 20_000);

    const after = await api.allBlocks();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(contiguousHeights(after)).toBe(true);
    // Wallets come back too: the transfer's recipient still holds its balance.
    expect((await api.get(`/wallets/${transfer.recipient}`)).data.balance).toBe('77');
  }, 150_000);
});
