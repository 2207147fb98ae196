import type { ServerRoute } from '@hapi/hapi';
import Nes from '@hapi/nes';
import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { transactionToJson, transfer } from '@lni/crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApiNodeConfig } from '../support/api-node-config.js';
import { eventually, freePort } from '../support/free-port.js';
import { startLedgerNode, TESTNET, type LedgerNode } from '../support/ledger-node.js';
import { stopNode } from '../support/node-harness.js';
import { replicaSkipReason, startPgReplica, type PgReplica } from '../support/pg-replica.js';
import { forgePopulatedChain, type PopulatedChain } from '../support/populated-chain.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

// Bodies are compared whole between two nodes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * What may differ between a core node and an api node at the same height, and why: each is
 * about the node answering, not the chain. Every other field of every GET route is compared.
 */
const NODE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // Each node's own ports; the api node has no pool, so no pool limits.
  '/api/node/configuration': ['data.ports', 'data.transactionPool'],
  // The core node syncs by the slot clock (blocks forged in the past: "behind"), the api node by
  // its lag behind the writer; the clock's now differs by the moment of each request.
  '/api/node/status': ['data.synced', 'data.blocksCount', 'data.timestamp'],
  '/api/node/syncing': ['data.syncing', 'data.blocks'],
};
/**
 * Not answers about the chain: process figures, the status page's files, and `/health`, whose
 * checks are the mode's (the core node's `sync` by the slot clock fails on this chain forged in
 * the past; the api node's `lag` is checked by the tests below).
 */
const NOT_COMPARED = new Set([
  '/metrics',
  '/status',
  '/status/assets/{file}',
  '/favicon.ico',
  '/health',
]);

describe.skipIf(replicaSkipReason)('api nodes on a hot standby beside a core node', () => {
  let pair: PgReplica;
  let core: LedgerNode;
  let chain: PopulatedChain;
  let funder: string;
  let pubKeyHash: number;
  let root: string;
  const apiNodes: {
    name: string;
    port: number;
    process?: KernelProcess;
    dirs: { config: string; data: string };
  }[] = [];
  const clients: Nes.Client[] = [];

  const nonceOf = async (address: string): Promise<bigint> => {
    const answer = (await (await fetch(`${core.api}/wallets/${address}`)).json()) as Json;
    return BigInt(answer.data.nonce as string) + 1n;
  };
  const coreBase = () => core.api.replace(/\/api$/, '');
  const apiBase = (index: number) => `http://127.0.0.1:${apiNodes[index]?.port}`;
  const heightOf = async (base: string) =>
    Number((await fetch(`${base}/api/blocks/last`)).headers.get('x-block-height'));
  const caughtUp = (index: number, height: number) =>
    eventually(
      async () => ((await heightOf(apiBase(index)).catch(() => 0)) >= height ? true : undefined),
      30_000,
      `api node ${index} at height ${height}`,
    );

  async function startApiNode(index: number): Promise<void> {
    const node = apiNodes[index];
    if (!node) throw new Error(`no api node ${index}`);
    node.process = runKernel(
      ['start', '--mode', 'api', '--config', node.dirs.config, '--data', node.dirs.data],
      { CORE_LOG_LEVEL: 'info' },
    );
    await eventually(
      async () => ((await fetch(`${apiBase(index)}/health`)).status === 200 ? true : undefined),
      60_000,
      `api node ${index} healthy`,
      () => node.process?.child.exitCode !== null,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${node.process?.stdout()}\n${node.process?.stderr()}`);
    });
  }

  beforeAll(async () => {
    pair = await startPgReplica();
    core = await startLedgerNode([], {}, {}, pair.primary);
    pubKeyHash = (core.kernel.cradle.networkConfig as { network: { pubKeyHash: number } }).network
      .pubKeyHash;
    funder = (await delegateSecrets(TESTNET))[0] as string;
    chain = await forgePopulatedChain(core, funder, pubKeyHash);
    root = await mkdtemp(join(tmpdir(), 'lni-api-replica-'));
    for (const index of [0, 1]) {
      const port = await freePort();
      const dirs = await writeApiNodeConfig(root, `api-${index}`, {
        networkFrom: TESTNET,
        standby: pair.standby,
        primary: pair.primary,
        port,
        upstream: coreBase(),
        api: { maxLagBlocks: 1 },
      });
      apiNodes.push({ name: `api-${index}`, port, dirs });
    }
    await Promise.all([startApiNode(0), startApiNode(1)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.disconnect()));
    for (const node of apiNodes) await stopNode(node.process);
    await core?.stop();
    await pair?.remove();
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** A value for each path parameter of the API's GET routes; a new route without one fails. */
  function pathFor(route: string): string {
    const values: Record<string, string> = {
      '/api/wallets/{id}': chain.addresses.alice,
      '/api/delegates/{id}': chain.delegates.active,
      '/api/blocks/{id}': '3',
      '/api/transactions/{id}': chain.transactions.vote?.id as string,
      '/api/locks/{id}': chain.transactions.openLock?.id as string,
      '/api/votes/{id}': chain.transactions.vote?.id as string,
      '/api/rounds/{round}': '1',
      '/api/transactions/unconfirmed/{id}': chain.transactions.transfer?.id as string,
      '/api/peers/{ip}': '127.0.0.1',
      '/api/webhooks/{id}': '00000000-0000-4000-8000-000000000000',
    };
    return route.replace(/^(.*?\{(\w+)\})/, (prefix: string) => {
      const value = values[prefix];
      if (value === undefined) throw new Error(`no value for the parameter of ${route}: add one`);
      return prefix.replace(/\{\w+\}$/, value);
    });
  }

  function without(body: Json, fields: readonly string[]): Json {
    const copy = structuredClone(body);
    for (const field of fields) {
      const keys = field.split('.');
      const last = keys.pop() as string;
      const parent = keys.reduce((node: Json, key) => node?.[key], copy);
      if (parent && typeof parent === 'object') delete parent[last];
    }
    return copy;
  }

  it('answers every GET route as the core node does at the same height', async () => {
    const height = await heightOf(coreBase());
    await caughtUp(0, height);
    const routes = (core.kernel.cradle.apiRoutes as unknown as { all(): readonly ServerRoute[] })
      .all()
      .filter((route) => route.method === 'GET' && !NOT_COMPARED.has(route.path))
      .map((route) => route.path);
    expect(routes.length).toBeGreaterThan(30);
    const extra = [
      '/api/wallets?orderBy=balance:desc&limit=20',
      '/api/wallets/top?limit=5',
      `/api/wallets/${chain.addresses.bob}/locks`,
      `/api/delegates?orderBy=votes:desc`,
      `/api/delegates/${chain.delegates.resigned}`,
      `/api/delegates/${chain.delegates.active}/voters`,
      '/api/transactions?type=8&typeGroup=1',
      `/api/transactions?senderId=${chain.addresses.bob}&orderBy=nonce:asc`,
      '/api/blocks?limit=3',
    ];
    const differences: string[] = [];
    for (const path of [...routes.map(pathFor), ...extra]) {
      const [fromCore, fromApi] = await Promise.all(
        [coreBase(), apiBase(0)].map(async (base) => {
          const response = await fetch(`${base}${path}`);
          const text = await response.text();
          let body: Json = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON (the root's HTML); compared as text
          }
          return {
            status: response.status,
            height: response.headers.get('x-block-height'),
            body: without(body, NODE_FIELDS[path.split('?')[0] as string] ?? []),
          };
        }),
      );
      try {
        expect(fromApi).toEqual(fromCore);
      } catch (error) {
        differences.push(`${path}: ${(error as Error).message.slice(0, 600)}`);
      }
    }
    expect(differences).toEqual([]);
  }, 120_000);

  it('pushes block.applied, an address its transactions and the wallets a block changed to a subscriber on an api node; lag ≤ 1 block', async () => {
    const client = new Nes.Client(`ws://127.0.0.1:${apiNodes[1]?.port}`);
    clients.push(client);
    await client.connect({ reconnect: false });
    const blocks: Json[] = [];
    const received: Json[] = [];
    await client.subscribe('/events/block.applied', (message) => void blocks.push(message));
    await client.subscribe(`/wallets/${chain.addresses.grace}/transactions`, (message) => {
      received.push(message);
    });
    const wallets = new Map<string, Json>();
    for (const address of [chain.addresses.grace, chain.addresses.alice]) {
      await client.subscribe(
        `/wallets/${address}`,
        (message) => void wallets.set(address, message),
      );
    }
    const payment = transfer({ network: pubKeyHash, milestone: core.milestones.at(2) })
      .recipientId(chain.addresses.grace)
      .amount(77)
      .nonce(await nonceOf(chain.addresses.alice))
      .sign(chain.passphrases.alice)
      .build();
    const block = await core.forge([payment]);
    await eventually(
      async () => (received.length > 0 ? true : undefined),
      15_000,
      'the transaction',
    );
    expect(received[0]).toMatchObject({ id: payment.id, recipient: chain.addresses.grace });
    await eventually(
      async () => (blocks.some((message) => message.id === block.id) ? true : undefined),
      15_000,
      'block.applied of the block',
    );
    // Sender and recipient, read together after the block, as the api node's route shows them.
    await eventually(async () => (wallets.size === 2 ? true : undefined), 15_000, 'both wallets');
    for (const [address, pushed] of wallets) {
      const shown = (await (await fetch(`${apiBase(1)}/api/wallets/${address}`)).json()) as Json;
      expect(pushed).toEqual(shown.data);
    }
    const health = (await (await fetch(`${apiBase(1)}/health`)).json()) as Json;
    expect(health.checks.lag.behind).toBeLessThanOrEqual(1);
    expect(health.checks.lag.writerHeight).toBe(block.height);
  }, 60_000);

  it('forwards POST /api/transactions from an api node into the core node pool', async () => {
    const payment = transfer({ network: pubKeyHash, milestone: core.milestones.at(2) })
      .recipientId(chain.addresses.frank)
      .amount(88)
      .nonce(await nonceOf(chain.addresses.bob))
      .sign(chain.passphrases.bob)
      .build();
    const posted = await fetch(`${apiBase(0)}/api/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [transactionToJson(payment)] }),
    });
    expect(posted.status).toBe(200);
    const inPool = await fetch(`${core.api}/transactions/unconfirmed/${payment.id}`);
    expect(inPool.status).toBe(200);
    await core.forge([payment]);
  });

  it('comes back after kill -9, and follows a standby restart and a primary restart without a restart', async () => {
    const killed = apiNodes[0]?.process;
    killed?.child.kill('SIGKILL');
    await killed?.exited();
    await startApiNode(0);
    await caughtUp(0, await heightOf(coreBase()));

    await pair.restart('standby');
    const afterStandby = await core.forge([]);
    await caughtUp(1, afterStandby.height);

    await pair.restart('primary');
    await eventually(
      async () => ((await core.kernel.cradle.database.checkAvailability()) ? true : undefined),
      30_000,
      'the core node back on the primary',
    );
    await pair.streaming();
    const afterPrimary = await core.forge([]);
    await caughtUp(1, afterPrimary.height);
    await caughtUp(0, afterPrimary.height);
    expect((await fetch(`${apiBase(1)}/health`)).status).toBe(200);
  }, 120_000);
});
