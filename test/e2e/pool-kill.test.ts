import type { KernelProcess } from '@lni/cli/testing';
import {
  addressFromPassphrase,
  keysFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionToJson,
  transfer,
  type KeyPair,
} from '@lni/crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { ApiClient, startNode, type NodeDirs } from '../support/node-harness.js';
import { createTestDatabase, databaseEnv, postgresSkipReason } from '../support/postgres.js';

const SENDERS = 4;
const PER_REQUEST = 5;

// An operator's node dies (kill -9) while clients submit transfers. Whatever the
// API answered `accept` for must still be there once it is back. A relay forges nothing, so
// every accepted transfer must be waiting in its pool.
describe.each([
  { backend: 'PostgreSQL', rounds: 3 },
  // The default for operators; one round, as its first start alone (creating PGlite) is long.
  { backend: 'the embedded database', rounds: 1 },
])('accepted transactions across kill -9 on $backend', ({ backend, rounds }) => {
  const postgres = backend === 'PostgreSQL';
  let root: string | undefined;
  let node: KernelProcess | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    if (node && node.child.exitCode === null && node.child.signalCode === null) {
      node.child.kill('SIGKILL');
      await node.exited();
    }
    await drop?.();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it.skipIf(postgres && postgresSkipReason)(
    `keeps every accepted transfer over ${rounds} kill -9 rounds`,
    async () => {
      root = await mkdtemp(join(tmpdir(), 'lni-pool-kill-'));
      const dirs: NodeDirs = { config: join(root, 'config'), data: join(root, 'data') };
      const [apiPort, p2pPort] = [await freePort(), await freePort()];
      const env: NodeJS.ProcessEnv = {
        CORE_API_PORT: String(apiPort),
        CORE_P2P_PORT: String(p2pPort),
      };
      if (postgres) {
        const database = await createTestDatabase();
        drop = database.drop;
        Object.assign(env, databaseEnv(database.connection));
      }
      const api = new ApiClient(`http://127.0.0.1:${apiPort}/api`);
      const start = async () => {
        node = startNode('relay', dirs, env);
        await eventually(() => api.get('/node/status'), 60_000, 'the API');
      };

      await start();
      const signer = await signerFor(dirs.config, api);
      const accepted: string[] = [];
      for (let round = 0; round < rounds; round++) {
        accepted.push(...(await postThenKill(api, signer, node as KernelProcess)));
        await start();
        const missing: string[] = [];
        for (const id of accepted) {
          if (!(await found(api, `/transactions/unconfirmed/${id}`))) missing.push(id);
        }
        expect({ round, missing }).toEqual({ round, missing: [] });
      }
      expect(accepted.length).toBeGreaterThanOrEqual(rounds * PER_REQUEST);
      expect(node?.stdout()).toContain('Pool restored');
    },
    rounds * 60_000 + 90_000,
  );
});

/** Signs transfers from the first delegates of the network, nonces following the node's. */
async function signerFor(configDir: string, api: ApiClient) {
  const network = loadNetworkConfig(join(configDir, 'crypto'));
  const { pubKeyHash } = network.network;
  const milestone = new Milestones(network.milestones).at(2);
  const { secrets } = JSON.parse(await readFile(join(configDir, 'delegates.json'), 'utf8')) as {
    secrets: string[];
  };
  const senders = secrets.slice(0, SENDERS).map((secret) => ({
    keys: keysFromPassphrase(secret),
    address: addressFromPassphrase(secret, pubKeyHash),
  }));
  const recipient = addressFromPassphrase('pool kill recipient', pubKeyHash);
  return {
    /** One request body per sender, each continuing that sender's nonces after what the node holds. */
    async requests(): Promise<string[]> {
      const pooled = await pooledNonces(api);
      return Promise.all(
        senders.map(async ({ keys, address }) => {
          const confirmed = BigInt((await api.get(`/wallets/${address}`)).data.nonce as string);
          const next = [confirmed, ...(pooled.get(address) ?? [])].reduce((a, b) =>
            a > b ? a : b,
          );
          const transactions = Array.from({ length: PER_REQUEST }, (_, i) =>
            transactionToJson(sign(keys, recipient, next + 1n + BigInt(i))),
          );
          return JSON.stringify({ transactions });
        }),
      );
    },
  };

  function sign(keys: KeyPair, to: string, nonce: bigint) {
    return transfer({ network: pubKeyHash, milestone })
      .recipientId(to)
      .amount(1n + nonce)
      .nonce(nonce)
      .sign(keys)
      .build();
  }
}

/** Each sender's nonces waiting in the pool. */
async function pooledNonces(api: ApiClient): Promise<Map<string, bigint[]>> {
  const nonces = new Map<string, bigint[]>();
  for (let page = 1; ; page++) {
    const answer = await api.get(`/transactions/unconfirmed?limit=100&page=${page}`);
    for (const tx of answer.data as { sender: string; nonce: string }[]) {
      nonces.set(tx.sender, [...(nonces.get(tx.sender) ?? []), BigInt(tx.nonce)]);
    }
    if (page >= answer.meta.pageCount) return nonces;
  }
}

/**
 * Posts one request per sender at once and kills the node (SIGKILL) as soon as the first
 * answer arrives; returns the ids of every answer received that said `accept`.
 */
async function postThenKill(
  api: ApiClient,
  signer: Awaited<ReturnType<typeof signerFor>>,
  node: KernelProcess,
): Promise<string[]> {
  const bodies = await signer.requests();
  const answers = await Promise.all(
    bodies.map(async (body) => {
      try {
        const response = await fetch(`${api.base}/transactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const answer = (await response.json()) as {
          data?: { accept?: string[] };
          errors?: Record<string, unknown>;
        };
        node.child.kill('SIGKILL');
        // Each request continues its sender's nonces: the node has no reason to refuse any.
        expect(answer.errors).toBeUndefined();
        return answer.data?.accept ?? [];
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        // Killed before this one was answered: nothing was promised.
        return [];
      }
    }),
  );
  node.child.kill('SIGKILL');
  expect((await node.exited()).signal).toBe('SIGKILL');
  return answers.flat();
}

async function found(api: ApiClient, path: string): Promise<boolean> {
  const response = await fetch(`${api.base}${path}`);
  if (response.status === 404) return false;
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return true;
}
