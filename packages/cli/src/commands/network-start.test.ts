import { readAppConfig } from '@lni/kernel';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planLocalNetwork } from '../local-network/plan.js';
import { prepareLocalNode } from '../local-network/prepare.js';
import { runKernel, runKernelOnTerminal, type KernelProcess } from '../testing/run-kernel.js';

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A base port whose P2P and API ports for `nodes` nodes are all free now. */
async function freeBasePort(nodes: number): Promise<number> {
  for (;;) {
    const base = 20_000 + 10 * Math.floor(Math.random() * 3_000);
    const ports = Array.from({ length: nodes }, (_, i) => [
      base + 10 * i,
      base + 10 * i + 3,
    ]).flat();
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return base;
  }
}

async function poll<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

const lastBlock = async (api: string) => {
  const response = await fetch(`${api}/blocks/last`);
  if (!response.ok) throw new Error(`${api}: ${response.status}`);
  return ((await response.json()) as { data: { height: number; id: string } }).data;
};

const dirs: string[] = [];
const running: KernelProcess[] = [];
afterAll(async () => {
  for (const process of running) process.child.kill('SIGTERM');
  await Promise.all(running.map((process) => process.exited()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('planLocalNetwork', () => {
  it('makes node-0 the core node and the others relays, each peering with all the others', () => {
    const nodes = planLocalNetwork({ nodes: 3, basePort: 4000, directory: '/srv/net' });
    expect(nodes.map((node) => [node.name, node.mode, node.p2pPort, node.apiPort])).toEqual([
      ['node-0', 'core', 4000, 4003],
      ['node-1', 'relay', 4010, 4013],
      ['node-2', 'relay', 4020, 4023],
    ]);
    expect(nodes[1]).toMatchObject({
      config: '/srv/net/node-1/config',
      data: '/srv/net/node-1/data',
      peers: [
        { ip: '127.0.0.1', port: 4000 },
        { ip: '127.0.0.1', port: 4020 },
      ],
    });
  });

  it('refuses ports beyond 65535 and a node count below one, naming the flag', () => {
    expect(() => planLocalNetwork({ nodes: 3, basePort: 65_520, directory: '/x' })).toThrow(
      /base-port: 3 nodes need ports 65520\.\.65543/,
    );
    expect(() => planLocalNetwork({ nodes: 0, basePort: 4000, directory: '/x' })).toThrow(
      /nodes: expected a whole number of at least 1/,
    );
  });
});

describe('prepareLocalNode', () => {
  it('writes a config directory that `kernel start --config` runs alone on its own ports', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'lni-net-prepare-'));
    dirs.push(directory);
    const [core, relay] = planLocalNetwork({ nodes: 2, basePort: 5000, directory });
    await prepareLocalNode(core!, 'testnet');
    await prepareLocalNode(relay!, 'testnet');
    expect(await readFile(join(core!.config, '.env'), 'utf8')).toContain(
      'CORE_P2P_PORT=5000\nCORE_API_HOST=127.0.0.1\nCORE_API_PORT=5003\n',
    );
    expect(await readFile(join(relay!.config, '.env'), 'utf8')).not.toContain('CORE_FORGER');
    expect(JSON.parse(await readFile(join(relay!.config, 'peers.json'), 'utf8'))).toEqual({
      list: [{ ip: '127.0.0.1', port: 5000 }],
    });
    // Both nodes hold the same network, and app.json still passes the kernel's validation.
    expect(await readFile(join(relay!.config, 'crypto', 'network.json'), 'utf8')).toBe(
      await readFile(join(core!.config, 'crypto', 'network.json'), 'utf8'),
    );
    const app = await readAppConfig(join(relay!.config, 'app.json'));
    expect(app.relay?.plugins.find((entry) => entry.package === '@lni/p2p')?.options).toMatchObject(
      {
        acceptLocalPeers: true,
        connections: { exempt: ['127.0.0.1', '::1'] },
      },
    );
    expect(app.core?.plugins.map((entry) => entry.package)).toContain('@lni/forger');
  });
});

describe('kernel network:start --nodes 2', () => {
  it('starts a forging core node and a relay that syncs its chain over p2p, and stops both on SIGTERM', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'lni-net-start-'));
    dirs.push(directory);
    const base = await freeBasePort(2);
    const network = runKernel(
      ['network:start', '--nodes', '2', '--base-port', String(base), '--data', directory],
      { CORE_LOG_LEVEL: 'info' },
    );
    running.push(network);
    const coreApi = `http://127.0.0.1:${base + 3}/api`;
    const relayApi = `http://127.0.0.1:${base + 13}/api`;
    // Two nodes boot one after the other, each creating its embedded database: allow for a busy machine.
    await network.waitFor(`api ${relayApi}`, 90_000);
    expect(network.stdout()).toContain(`node-0  core   pid`);

    // The relay forges nothing: reaching height 3 with the core's block ids means it synced.
    const synced = await poll(
      async () => {
        const [core, relay] = await Promise.all([lastBlock(coreApi), lastBlock(relayApi)]);
        return relay.height >= 3 && relay.height <= core.height ? relay : undefined;
      },
      60_000,
      'the relay at height 3',
    );
    const coreBlock = await fetch(`${coreApi}/blocks/${synced.height}`).then(
      (response) => response.json() as Promise<{ data: { id: string } }>,
    );
    expect(coreBlock.data.id).toBe(synced.id);

    network.child.kill('SIGTERM');
    expect((await network.exited()).code).toBe(0);
    // Both nodes are gone: their ports are free again.
    expect(await isFree(base)).toBe(true);
    expect(await isFree(base + 10)).toBe(true);
  }, 180_000);

  it('on a terminal: readable lines, a node stopped from outside reported while the others run, the README restart command', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'lni-net-terminal-'));
    dirs.push(directory);
    const base = await freeBasePort(2);
    const network = runKernelOnTerminal(
      ['network:start', '--nodes', '2', '--base-port', String(base), '--data', directory],
      { CORE_LOG_LEVEL: 'info' },
      join(directory, 'network.pid'),
    );
    running.push(network);
    await network.waitFor('Ctrl-C stops them all', 120_000);
    const pidOf = (name: string) =>
      Number(new RegExp(`${name} {2}\\w+ +pid (\\d+)`).exec(network.stdout())?.[1]);

    // Log records as readable lines, each after its node's name; warnings (node-0 dials
    // node-1 before it listens) on one line: no stack anywhere.
    const lines = network.stdout().split(/\r?\n/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^node-0 \| \d\d:\d\d:\d\d\.\d{3} INFO {2}Starting node /),
    );
    expect(lines.filter((line) => line.startsWith('node-0 | {'))).toEqual([]);
    expect(lines.filter((line) => /^node-\d \| +at /.test(line))).toEqual([]);

    // A node stopped from outside: which one and why, and the other keeps running.
    process.kill(pidOf('node-1'), 'SIGTERM');
    await network.waitFor(
      'node-1 | stopped: exit code 0 after SIGTERM; 1 other node(s) still running (Ctrl-C stops them)',
      30_000,
    );
    const coreApi = `http://127.0.0.1:${base + 3}/api`;
    const coreHeight = (await lastBlock(coreApi)).height;

    // The README's command restarts it alone: mode and ports come from its .env.
    const alone = runKernel([
      'start',
      '--config',
      join(directory, 'node-1', 'config'),
      '--data',
      join(directory, 'node-1', 'data'),
    ]);
    running.push(alone);
    const relayApi = `http://127.0.0.1:${base + 13}/api`;
    await poll(
      async () => ((await lastBlock(relayApi)).height >= coreHeight ? true : undefined),
      90_000,
      'node-1 restarted alone and synced',
    );
    expect(alone.stdout()).toContain('"mode":"relay"');
    alone.child.kill('SIGTERM');
    expect((await alone.exited()).code).toBe(0);

    // A node killed: a failure, said as such; with none left the command ends with code 1.
    process.kill(pidOf('node-0'), 'SIGKILL');
    await network.waitFor(
      'node-0 | failed: killed by SIGKILL; no node is running any more',
      30_000,
    );
    expect((await network.exited()).code).toBe(1);
    expect(await isFree(base)).toBe(true);
  }, 300_000);
});
