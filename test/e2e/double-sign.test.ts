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

// ARK core#4429: a backup forger left running with the same secrets forked the network. Here a
// relay and two forger processes with the same delegates.json; the second is a copy started
// with no signing record (deleted, or never moved with it). No height gets two blocks.
describe('two forgers with the same secrets, as separate processes', () => {
  let root: string;
  let relayDirs: NodeDirs;
  let relay: KernelProcess | undefined;
  let first: KernelProcess | undefined;
  let second: KernelProcess | undefined;
  let api: ApiClient;
  let slotMs: number;
  let forgerEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-double-sign-'));
    relayDirs = { config: join(root, 'relay', 'config'), data: join(root, 'relay', 'data') };
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    api = new ApiClient(`http://127.0.0.1:${apiPort}/api`);
    relay = startNode('relay', relayDirs, {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_PORT: String(p2pPort),
    });
    await relay.waitFor('First run: published', 30_000);
    await eventually(() => api.get('/node/status'), 60_000, 'the relay API');
    for (const name of ['first', 'second']) {
      await cp(relayDirs.config, join(root, name, 'config'), { recursive: true });
    }
    slotMs = blocktimeMs(relayDirs.config);
    forgerEnv = { CORE_P2P_PORT: String(p2pPort) };
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopNode(second), stopNode(first), stopNode(relay)]);
    if (root) await rm(root, { recursive: true, force: true });
  });

  const dirs = (name: string): NodeDirs => ({
    config: join(root, name, 'config'),
    data: join(root, name, 'data'),
  });

  it('the copy started second sees the first forging, stands down, and no height has two blocks', async () => {
    first = startNode('forger', dirs('first'), forgerEnv);
    await first.waitFor('Forged block', 60_000);
    // It watches two slots before its first block, as an operator moving a forger would set.
    second = startNode('forger', dirs('second'), {
      ...forgerEnv,
      CORE_FORGER_STARTUP_WAIT: String(2 * slotMs),
    });
    await second.waitFor('Double signing prevented', 4 * slotMs + 30_000);
    const height = await api.height();
    await api.reach(height + 3, 5 * slotMs + 10_000);

    const firstForged = forgedBlocks(first.stdout());
    const secondForged = forgedBlocks(second.stdout());
    expect(secondForged).toEqual([]);
    const forged = [...firstForged, ...secondForged];
    expect(new Set(forged.map((block) => block.height)).size).toBe(forged.length);
    const blocks = await api.allBlocks();
    expect(contiguousHeights(blocks)).toBe(true);
    expect(new Set(blocks.map((block) => block.epoch)).size).toBe(blocks.length);

    // One warning, naming the delegate by its username and the other forger's block.
    const warnings = logLines(second.stdout()).filter((line) =>
      String(line.msg).startsWith('Double signing prevented'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.delegate).toMatch(/^genesis_\d+$/);
    expect(forged.map((block) => block.id)).toContain(warnings[0]?.otherBlock);
    // The first forger names its delegates by username too (issue 31).
    expect(firstForged.every((block) => /^genesis_\d+$/.test(block.delegate))).toBe(true);
  }, 180_000);
});

function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The `Forged block` log records of one forger process (bunyan JSON lines). */
function forgedBlocks(stdout: string): { height: number; id: string; delegate: string }[] {
  return logLines(stdout).filter((line) => line.msg === 'Forged block') as unknown as {
    height: number;
    id: string;
    delegate: string;
  }[];
}
