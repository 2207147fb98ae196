import type { KernelProcess } from '@lni/cli/testing';
import { cp, mkdtemp, rm } from 'node:fs/promises';
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

// A relay and a forger as two processes, as an operator splits them: the forger holds the
// delegates' secrets and reaches the relay only over its P2P port.
describe('relay and forger in separate processes', () => {
  let root: string;
  let relayDirs: NodeDirs;
  let forgerDirs: NodeDirs;
  let relayEnv: NodeJS.ProcessEnv;
  let forgerEnv: NodeJS.ProcessEnv;
  let relay: KernelProcess | undefined;
  let forger: KernelProcess | undefined;
  /** Every forger process started, for the blocks each says it forged. */
  const forgerRuns: KernelProcess[] = [];
  const startForger = (): KernelProcess => {
    forger = startNode('forger', forgerDirs, forgerEnv);
    forgerRuns.push(forger);
    return forger;
  };
  let api: ApiClient;
  let slotMs: number;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-relay-forger-'));
    relayDirs = { config: join(root, 'relay', 'config'), data: join(root, 'relay', 'data') };
    forgerDirs = { config: join(root, 'forger', 'config'), data: join(root, 'forger', 'data') };
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    relayEnv = { CORE_API_PORT: String(apiPort), CORE_P2P_PORT: String(p2pPort) };
    // No relay list: a forger process dials 127.0.0.1 on CORE_P2P_PORT, as ARK's does.
    forgerEnv = { CORE_P2P_PORT: String(p2pPort) };
    api = new ApiClient(`http://127.0.0.1:${apiPort}/api`);

    relay = startNode('relay', relayDirs, relayEnv);
    await relay.waitFor('First run: published', 30_000);
    await eventually(() => api.get('/node/status'), 60_000, 'the relay API');
    // The forger's own config directory: the relay's network (crypto/) and delegates.json.
    await cp(relayDirs.config, forgerDirs.config, { recursive: true });
    slotMs = blocktimeMs(forgerDirs.config);
    startForger();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopNode(forger), stopNode(relay)]);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('forges a block in every slot and the relay applies each', async () => {
    await forger!.waitFor('Forged block', 60_000);
    const first = await api.height();
    await api.reach(first + 3, 4 * slotMs + 10_000);
    const blocks = (await api.allBlocks()).filter((block) => block.height > first);
    // Consecutive blocks are one blocktime apart: no slot of the 51 delegates was missed.
    for (let i = 1; i < blocks.length; i++) {
      expect(blocks[i]!.epoch - blocks[i - 1]!.epoch).toBe(slotMs / 1000);
    }
    expect(forger!.stdout()).not.toContain('Missed slot');
  }, 120_000);

  it('forges a transfer posted to the relay within two slots and finds it by address', async () => {
    const posted = Date.now();
    const transfer = await api.postTransfer(relayDirs.config, 'relay forger recipient', 321);
    const found = await eventually(
      async () => {
        const page = await api.get(`/transactions?address=${transfer.recipient}`);
        return page.meta.totalCount > 0 ? page.data[0] : undefined;
      },
      2 * slotMs + 5_000,
      'the transfer in a block',
    );
    expect(found).toMatchObject({ id: transfer.id, amount: '321', sender: transfer.sender });
    expect(found.confirmations).toBeGreaterThanOrEqual(1);
    expect(Date.now() - posted).toBeLessThan(2 * slotMs + 5_000);

    // The same request once another block is on: answered anew, not from the response cache
    // of the earlier tip.
    await api.reach((await api.height()) + 1, 2 * slotMs + 5_000);
    const later = await api.get(`/transactions?address=${transfer.recipient}`);
    expect(later.data[0].confirmations).toBeGreaterThan(found.confirmations);
  }, 60_000);

  it('resumes forging in its next slot after the forger restarts', async () => {
    expect(await stopNode(forger)).toBe(0);
    const before = await api.height();
    await startForger().waitFor('Forger started', 30_000);
    const started = Date.now();
    await api.reach(before + 1, 30_000);
    // The first slot that begins after start-up is forged: at most one blocktime (plus a margin
    // for the relay to apply it) after the forger is up.
    expect(Date.now() - started).toBeLessThan(slotMs + 3_000);
  }, 90_000);

  it('waits without crashing while the relay is down and resumes without double forging', async () => {
    const before = await api.height();
    const beforeBlocks = await api.allBlocks();
    expect(await stopNode(relay)).toBe(0);
    await forger!.waitFor('Relay did not answer', 15_000);
    // A slot passes with no relay; the forger keeps running and warned only once.
    await new Promise((resolve) => setTimeout(resolve, slotMs));
    expect(forger!.child.exitCode).toBeNull();
    expect(forger!.stdout().split('Relay did not answer').length - 1).toBe(1);

    relay = startNode('relay', relayDirs, relayEnv);
    await eventually(() => api.get('/node/status'), 60_000, 'the restarted relay API');
    // The relay kept its chain on disk.
    expect(await api.height()).toBeGreaterThanOrEqual(before);
    await forger!.waitFor('Relay is back', 30_000);
    await api.reach(before + 2, 4 * slotMs + 10_000);
    expect(forger!.child.exitCode).toBeNull();

    const blocks = await api.allBlocks();
    expect(contiguousHeights(blocks)).toBe(true);
    // No height was forged twice, by either forger run, and each forged block is the chain's.
    const forged = forgerRuns.flatMap((run) => forgedBlocks(run.stdout()));
    expect(forged.length).toBeGreaterThanOrEqual(6);
    expect(new Set(forged.map((block) => block.height)).size).toBe(forged.length);
    const chain = new Map(blocks.map((block) => [block.height, block.id]));
    for (const block of forged) expect(chain.get(block.height)).toBe(block.id);
    // The blocks from before the outage are unchanged.
    expect(blocks.slice(0, beforeBlocks.length)).toEqual(beforeBlocks);
    expect(new Set(blocks.map((block) => block.epoch)).size).toBe(blocks.length);
  }, 150_000);
});

/** The `Forged block` log records of one forger process (bunyan JSON lines). */
function forgedBlocks(stdout: string): { height: number; id: string }[] {
  return stdout
    .split('\n')
    .filter((line) => line.includes('"msg":"Forged block"'))
    .map((line) => JSON.parse(line) as { height: number; id: string });
}
