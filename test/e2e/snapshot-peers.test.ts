import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { startLedgerNode, type LedgerNode } from '../support/ledger-node.js';
import { copyConfig, joinLoopback, publishConfig } from '../support/loopback-peers.js';
import { ApiClient, startNode, stopNode, type NodeDirs } from '../support/node-harness.js';
import { createTestDatabase, postgresSkipReason } from '../support/postgres.js';
import { createSnapshot, writeDatabaseEnv } from '../support/snapshot-target.js';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

// snapshot:restore asks the network's peers (peers.json) for the snapshot's last block before
// using it: a real core node serves ARK's getCommonBlocks.
describe.skipIf(postgresSkipReason)('snapshot:restore asks the network', () => {
  let root: string;
  let core: NodeDirs;
  let coreEnv: NodeJS.ProcessEnv;
  let coreApi: ApiClient;
  let p2pPort: number;
  let running: KernelProcess | undefined;
  let other: LedgerNode | undefined;
  const databases: TestDatabase[] = [];

  /** A config of the same network whose peer is the core node, on a new empty database. */
  const newNode = async (name: string) => {
    const database = await createTestDatabase();
    databases.push(database);
    const config = join(root, name, 'config');
    await copyConfig(core.config, config);
    await joinLoopback(config, [{ ip: '127.0.0.1', port: p2pPort }]);
    await writeDatabaseEnv(config, database.connection);
    return ['--config', config, '--data', join(root, name, 'data')];
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-snapshot-peers-'));
    core = { config: join(root, 'core', 'config'), data: join(root, 'core', 'data') };
    const apiPort = await freePort();
    p2pPort = await freePort();
    await publishConfig(core.config);
    await joinLoopback(core.config, []);
    coreEnv = {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_HOST: '127.0.0.1',
      CORE_P2P_PORT: String(p2pPort),
    };
    coreApi = new ApiClient(`http://127.0.0.1:${apiPort}/api`);
    running = startNode('core', core, coreEnv);
    await eventually(() => coreApi.get('/node/status'), 90_000, 'the core API');
    await coreApi.reach(3, 60_000);
  }, 150_000);

  afterAll(async () => {
    await stopNode(running);
    await other?.stop();
    for (const database of databases) await database.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("restores a snapshot of the peer's chain, which the peer confirms", async () => {
    expect(await stopNode(running)).toBe(0);
    const file = join(root, 'core.snapshot.tar.gz');
    const create = createSnapshot(core, file);
    expect((await create.exited()).code, create.stderr()).toBe(0);
    running = startNode('core', core, coreEnv);
    await eventually(() => coreApi.get('/node/status'), 90_000, 'the restarted core API');

    const restore = runKernel(['snapshot:restore', file, ...(await newNode('confirmed'))]);
    expect((await restore.exited()).code, restore.stderr()).toBe(0);
    expect(restore.stdout()).toMatch(/Block \d+ confirmed by 127\.0\.0\.1:\d+/);
    expect(restore.stderr()).not.toContain('warning');
  }, 150_000);

  it('refuses a snapshot of another chain of the network, which the peer does not hold', async () => {
    // The same network's genesis, forged on by another node: a chain the network never had.
    other = await startLedgerNode();
    await writeDatabaseEnv(other.kernel.paths.config, other.databaseConnection);
    for (let block = 0; block < 2; block += 1) await other.forge([]);
    const file = join(root, 'other.snapshot.tar.gz');
    const create = createSnapshot(other.kernel.paths, file);
    expect((await create.exited()).code, create.stderr()).toBe(0);

    const args = await newNode('refused');
    const restore = runKernel(['snapshot:restore', file, ...args, '--trust']);
    expect((await restore.exited()).code).toBe(1);
    expect(restore.stderr().trim()).toMatch(
      /^error: No peer holds block \d+ at height 3 \(asked 127\.0\.0\.1:\d+\): the snapshot is not of the network's chain; nothing was written$/,
    );
  }, 90_000);
});
