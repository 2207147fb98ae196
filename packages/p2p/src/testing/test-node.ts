import { asValue } from 'awilix';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chain } from '@lni/state/contracts';
import type { ForgingSource } from '@lni/state/contracts';
import { p2pPlugin } from '../plugin.js';
import type { SeedPeer } from '../peers/seed-list.js';
import { MemoryChain } from './memory-chain.js';

export interface TestNode {
  readonly kernel: TestKernel;
  readonly chain: MemoryChain;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Limits loose enough that only the test that means to hit one does: every test node shares
 * 127.0.0.1, where in a real network each peer has its own IP and its own budget.
 */
export const relaxedLimits = {
  connections: { maxPerIp: 50, newPerInterval: 200, intervalSeconds: 30 },
  rateLimits: {
    global: { points: 1_000, durationSeconds: 1 },
    messages: {
      getStatus: { points: 100, durationSeconds: 1 },
      getPeers: { points: 100, durationSeconds: 1 },
    },
  },
  redial: { minSeconds: 0.2, maxSeconds: 2 },
  minimumNetworkReach: 1,
};

/**
 * A node on 127.0.0.1 with an ephemeral port: the kernel, the p2p plugin, and a MemoryChain
 * registered as `chain` the way the state plugin will register the real ledger.
 */
export async function startTestNode(
  input: {
    readonly chain?: MemoryChain;
    /**
     * A real ledger (the state plugin's chain port) registered as `chain` instead of
     * `chain`, for tests of the two together; `chain` is then unused.
     */
    readonly ledger?: Chain;
    /** Registered as `forgingSource` when given, as the state plugin will register the ledger's. */
    readonly forging?: ForgingSource;
    readonly seeds?: readonly SeedPeer[];
    readonly options?: Readonly<Record<string, unknown>>;
    readonly env?: Readonly<Record<string, string>>;
  } = {},
): Promise<TestNode> {
  const chain = input.chain ?? new MemoryChain({ height: 5 });
  const directory = await mkdtemp(join(tmpdir(), 'lni-p2p-'));
  const paths = {
    config: join(directory, 'config'),
    data: join(directory, 'data'),
    log: join(directory, 'data', 'node.log'),
  };
  await mkdir(paths.config, { recursive: true });
  if (input.seeds) {
    await writeFile(join(paths.config, 'peers.json'), JSON.stringify({ list: input.seeds }));
  }
  const ledger: Plugin<object> = {
    name: 'test-ledger',
    register: ({ container }) => {
      container.register({ chain: asValue<Chain>(input.ledger ?? chain) });
      if (input.forging) container.register({ forgingSource: asValue(input.forging) });
    },
  };
  let kernel: TestKernel;
  try {
    kernel = await startTestKernel({
      paths,
      env: input.env ?? {},
      plugins: [
        { plugin: ledger },
        {
          plugin: p2pPlugin as Plugin<object>,
          options: {
            host: '127.0.0.1',
            port: 0,
            discoveryIntervalSeconds: 0,
            acceptLocalPeers: true,
            requestTimeoutMs: 3_000,
            sync: { enabled: false },
            ...relaxedLimits,
            ...input.options,
          },
        },
      ],
    });
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    kernel,
    chain,
    port: kernel.cradle.p2pListener.port,
    async stop() {
      try {
        await kernel.stop();
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}
