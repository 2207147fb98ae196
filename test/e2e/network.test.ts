import type { KernelProcess } from '@lni/cli/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { copyConfig, joinLoopback, publishConfig } from '../support/loopback-peers.js';
import {
  ApiClient,
  contiguousHeights,
  startNode,
  stopNode,
  type NodeDirs,
} from '../support/node-harness.js';

// Two processes on loopback, each with its own embedded database: a core node that forges and a
// fresh relay that knows it only as a seed peer.
describe('two nodes on loopback: sync and propagation over P2P', () => {
  let root: string;
  let coreDirs: NodeDirs;
  let relayDirs: NodeDirs;
  let core: KernelProcess | undefined;
  let relay: KernelProcess | undefined;
  let coreApi: ApiClient;
  let relayApi: ApiClient;
  let relayEnv: NodeJS.ProcessEnv;
  let coreP2pPort: number;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-network-'));
    coreDirs = { config: join(root, 'core', 'config'), data: join(root, 'core', 'data') };
    relayDirs = { config: join(root, 'relay', 'config'), data: join(root, 'relay', 'data') };
    const [coreApiPort, coreP2p, relayApiPort, relayP2p] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    await publishConfig(coreDirs.config);
    await copyConfig(coreDirs.config, relayDirs.config);
    await joinLoopback(coreDirs.config, [{ ip: '127.0.0.1', port: relayP2p }]);
    await joinLoopback(relayDirs.config, [{ ip: '127.0.0.1', port: coreP2p }]);
    coreP2pPort = coreP2p;
    coreApi = new ApiClient(`http://127.0.0.1:${coreApiPort}/api`);
    relayApi = new ApiClient(`http://127.0.0.1:${relayApiPort}/api`);
    relayEnv = {
      CORE_API_PORT: String(relayApiPort),
      CORE_P2P_HOST: '127.0.0.1',
      CORE_P2P_PORT: String(relayP2p),
    };
    core = startNode('core', coreDirs, {
      CORE_API_PORT: String(coreApiPort),
      CORE_P2P_HOST: '127.0.0.1',
      CORE_P2P_PORT: String(coreP2p),
    });
    await eventually(() => coreApi.get('/node/status'), 90_000, 'the core API');
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopNode(relay), stopNode(core)]);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a fresh relay syncs the chain its seed peer forged', async () => {
    const forged = await coreApi.reach(4, 60_000);
    relay = startNode('relay', relayDirs, relayEnv);
    await eventually(() => relayApi.get('/node/status'), 90_000, 'the relay API');
    await relayApi.reach(forged, 60_000);
    const [ours, theirs] = [await relayApi.allBlocks(), await coreApi.allBlocks()];
    expect(contiguousHeights(ours)).toBe(true);
    expect(ours.slice(0, forged)).toEqual(theirs.slice(0, forged));
  }, 180_000);

  it('a block the core forges later is applied by the relay, with the same id', async () => {
    const next = (await coreApi.height()) + 1;
    await coreApi.reach(next, 30_000);
    const block = (await coreApi.get(`/blocks/${next}`)).data as { id: string };
    const relayed = await eventually(
      () => relayApi.get(`/blocks/${next}`).catch(() => undefined),
      30_000,
      `block ${next} on the relay`,
    );
    expect(relayed.data.id).toBe(block.id);
  }, 90_000);

  it('GET /api/peers on the relay shows the core at its current height, and no bans', async () => {
    const target = await coreApi.height();
    // The relay polls its peers' status every sync interval (8 s) and keeps what they say.
    const listed = await eventually(
      async () => {
        const peers = await relayApi.get('/peers');
        const entry = (peers.data as { port: number; height: number }[]).find(
          (peer) => peer.port === coreP2pPort,
        );
        return entry && entry.height >= target ? peers : undefined;
      },
      40_000,
      `the core listed at height ${target} or more`,
    );
    expect(listed.data[0]).toMatchObject({ ip: '127.0.0.1', port: coreP2pPort, score: 0 });
    expect(listed.meta.bans).toEqual([]);
  }, 60_000);

  it('a transfer posted to the relay reaches the core, which forges it', async () => {
    const { id } = await relayApi.postTransfer(relayDirs.config, 'a p2p recipient', 777);
    // The relay does not forge: the transfer is in a block only if the core got it over P2P.
    const onCore = await eventually(
      () =>
        coreApi
          .get(`/transactions/unconfirmed/${id}`)
          .catch(() => coreApi.get(`/transactions/${id}`))
          .catch(() => undefined),
      30_000,
      'the transfer on the core',
    );
    expect(onCore.data.id).toBe(id);
    const confirmed = await eventually(
      () => relayApi.get(`/transactions/${id}`).catch(() => undefined),
      40_000,
      'the transfer forged and relayed back',
    );
    expect(confirmed.data.amount).toBe('777');
  }, 90_000);

  it('a relay killed with SIGKILL restarts on its database and catches up with no gap', async () => {
    relay!.child.kill('SIGKILL');
    await relay!.exited();
    const before = await coreApi.height();
    // The core goes on while the relay is down; the relay must fetch what it missed.
    const target = await coreApi.reach(before + 2, 40_000);
    relay = startNode('relay', relayDirs, relayEnv);
    await eventually(() => relayApi.get('/node/status'), 90_000, 'the restarted relay API');
    await relayApi.reach(target, 60_000);
    const [ours, theirs] = [await relayApi.allBlocks(), await coreApi.allBlocks()];
    expect(contiguousHeights(ours)).toBe(true);
    expect(ours.slice(0, target)).toEqual(theirs.slice(0, target));
  }, 180_000);
});
