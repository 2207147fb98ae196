import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { keysFromPassphrase } from '@lni/crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import {
  ApiClient,
  startNode,
  stopNode,
  writeSingleNodeApp,
  type NodeDirs,
} from '../support/node-harness.js';
import { createTestDatabase, databaseEnv, postgresSkipReason } from '../support/postgres.js';

// A generated network of three delegates with 2 s blocks, run by one core node whose forger
// has only two of the secrets: the third delegate's forger is, in effect, stopped.
describe.skipIf(postgresSkipReason)('a delegate whose forger is stopped', () => {
  let root: string;
  let node: KernelProcess | undefined;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let api: ApiClient;
  let withheld: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-missed-slots-'));
    const dirs: NodeDirs = { config: join(root, 'config'), data: join(root, 'data') };
    const generate = runKernel([
      'network:generate',
      '--network',
      'missing',
      '--delegates',
      '3',
      '--blocktime',
      '2',
      '--config',
      dirs.config,
    ]);
    expect((await generate.exited()).code).toBe(0);
    const file = join(dirs.config, 'delegates.json');
    const { secrets } = JSON.parse(await readFile(file, 'utf8')) as { secrets: string[] };
    withheld = keysFromPassphrase(secrets[0] as string).publicKey.toString('hex');
    await writeFile(file, JSON.stringify({ secrets: secrets.slice(1) }));
    // One node is the whole network: its forger forges without peers.
    await writeSingleNodeApp(dirs.config);
    database = await createTestDatabase();
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    api = new ApiClient(`http://127.0.0.1:${apiPort}/api`);
    node = startNode('core', dirs, {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_PORT: String(p2pPort),
      ...databaseEnv(database.connection),
    });
    await eventually(() => api.get('/node/status'), 120_000, 'the API');
  }, 180_000);

  afterAll(async () => {
    await stopNode(node);
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('misses its slots while the others forge, and its productivity shows it', async () => {
    const delegate = await eventually(
      async () => {
        const data = (await api.get(`/delegates/${withheld}`)).data;
        return data.blocks.missed >= 2 ? data : undefined;
      },
      90_000,
      'two missed slots of the withheld delegate',
    );
    expect(delegate.blocks.produced).toBe(0);
    expect(delegate.production.productivity).toBe(0);
    const missed = await api.get(`/delegates/${withheld}/missed`);
    expect(missed.meta.totalCount).toBeGreaterThanOrEqual(2);
    expect(missed.data[0]).toMatchObject({ round: expect.any(Number), slot: expect.any(Number) });
    const forging = (await api.get('/delegates?blocks.produced.from=1')).data as {
      publicKey: string;
      blocks: { missed: number };
    }[];
    expect(forging.map((d) => d.publicKey)).not.toContain(withheld);
    expect(forging.length).toBe(2);
    for (const other of forging) expect(other.blocks.missed).toBe(0);
  }, 120_000);
});
