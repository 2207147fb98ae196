import { asValue } from 'awilix';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import p2pPlugin, { type Chain } from '@lni/p2p';
import {
  connectTestClient,
  eventually,
  MemoryChain,
  RawSocket,
  startTestNode,
  type TestNode,
} from '@lni/p2p/testing';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresSkipReason } from '../support/postgres.js';

// The p2p plugin on the real database plugin (PostgreSQL): what a node learns about its peers
// and who it banned is still known after a restart. The ledger is stood in for by MemoryChain.
describe.skipIf(postgresSkipReason)('peers and bans kept in the database', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let root: string;
  const running: { readonly kernel?: TestKernel; stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await mkdtemp(join(tmpdir(), 'lni-p2p-persist-'));
    await mkdir(join(root, 'config'), { recursive: true });
  });
  afterAll(async () => {
    for (const node of running.splice(0).reverse()) await node.stop();
    await database?.drop();
    await rm(root, { recursive: true, force: true });
  });

  /** A node whose p2p keeps its peers in this test's database. */
  async function start(chain: MemoryChain, options: Record<string, unknown> = {}) {
    const ledger: Plugin<object> = {
      name: 'test-ledger',
      register: ({ container }) => container.register({ chain: asValue<Chain>(chain) }),
    };
    const kernel: TestKernel = await startTestKernel({
      paths: {
        config: join(root, 'config'),
        data: join(root, 'data'),
        log: join(root, 'node.log'),
      },
      plugins: [
        {
          plugin: databasePlugin as Plugin<object>,
          options: { connection: database.connection, integrityCheck: false },
        },
        { plugin: ledger },
        {
          plugin: p2pPlugin as Plugin<object>,
          options: {
            host: '127.0.0.1',
            port: 0,
            acceptLocalPeers: true,
            discoveryIntervalSeconds: 0,
            sync: { enabled: false },
            redial: { minSeconds: 0.2, maxSeconds: 1 },
            minimumNetworkReach: 1,
            ...options,
          },
        },
      ],
    });
    const handle = { kernel, stop: () => kernel.stop() };
    running.push(handle);
    return kernel;
  }

  async function stop(kernel: TestKernel): Promise<void> {
    const index = running.findIndex((entry) => entry.kernel === kernel);
    running.splice(index, 1);
    await kernel.stop();
  }

  it('dials the peers it knew after a restart, without any seed', async () => {
    const peer: TestNode = await startTestNode({ chain: new MemoryChain({ height: 7 }) });
    running.push(peer);
    const first = await start(new MemoryChain({ height: 3 }));
    expect(await first.cradle.peerNetwork.connect('127.0.0.1', peer.port)).toBe('added');
    await stop(first);

    const again = await start(new MemoryChain({ height: 3 }));
    await eventually(
      () => again.cradle.peerRepository.has('127.0.0.1', peer.port),
      'the known peer dialled again',
    );
    expect(again.cradle.peerRepository.get('127.0.0.1', peer.port)?.height).toBe(7);
    await stop(again);
  });

  it('keeps a ban across a restart: the banned IP is still refused at the socket', async () => {
    const watched = {
      penalties: { exempt: [], banSeconds: 600 },
      rateLimits: { exempt: [] },
    };
    const first = await start(new MemoryChain({ height: 3 }), watched);
    const port = first.cradle.p2pServer.port;
    const client = await connectTestClient(port);
    await client.postBlock(Buffer.from('dead00', 'hex'), 0).catch(() => undefined);
    expect(first.cradle.peerRepository.isBanned('127.0.0.1')).toBe(true);
    const [ban] = first.cradle.peerRepository.bans();
    await stop(first);

    const again = await start(new MemoryChain({ height: 3 }), watched);
    expect(again.cradle.peerRepository.bans()).toEqual([ban]);
    await expect(RawSocket.open(again.cradle.p2pServer.port)).rejects.toThrow();
    expect(again.cradle.p2pServer.gate.refused().banned).toBe(1);
    await stop(again);
  });
});
