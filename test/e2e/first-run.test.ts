import { runKernel, type KernelProcess } from '@lni/cli/testing';
import {
  addressFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionToJson,
  transfer,
} from '@lni/crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { scrape, valueOf } from '../support/prometheus.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

// The README's start command on a fresh machine: core mode, testnet, embedded database, no peers.
describe('first run: kernel start --mode core', () => {
  let root: string;
  let node: KernelProcess;
  let api: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-first-run-'));
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${apiPort}/api`;
    node = runKernel(
      ['start', '--mode', 'core', '--config', join(root, 'config'), '--data', join(root, 'data')],
      {
        CORE_API_PORT: String(apiPort),
        // Not the default 4000: the in-process forger follows the node's own P2P port.
        CORE_P2P_PORT: String(p2pPort),
        CORE_LOG_LEVEL: 'info',
      },
    );
  });
  afterAll(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited();
    await rm(root, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (path: string): Promise<any> => {
    const response = await fetch(`${api}${path}`);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  };
  const height = async () => (await get('/blocks/last')).data.height as number;

  it('answers on the API and forges a block every blocktime on its own', async () => {
    await eventually(() => get('/node/status'), 120_000, 'the API');
    const start = await eventually(height, 30_000, 'the genesis block');
    const later = await eventually(
      async () => ((await height()) >= start + 2 ? height() : undefined),
      60_000,
      'two forged blocks',
    );
    expect(later).toBeGreaterThanOrEqual(start + 2);
    const delegates = await get('/delegates?isResigned=false&limit=100');
    expect(delegates.meta.totalCount).toBe(51);
  }, 240_000);

  it('forges a submitted transfer and finds it by address', async () => {
    const config = join(root, 'config');
    const network = loadNetworkConfig(join(config, 'crypto'));
    const secrets = await delegateSecrets(config);
    const sender = secrets[0] as string;
    const senderAddress = addressFromPassphrase(sender, network.network.pubKeyHash);
    const wallet = (await get(`/wallets/${senderAddress}`)).data;
    const recipient = addressFromPassphrase('a new wallet', network.network.pubKeyHash);
    const milestone = new Milestones(network.milestones).at(await height());
    const tx = transfer({ network: network.network.pubKeyHash, milestone })
      .recipientId(recipient)
      .amount(123)
      .nonce(BigInt(wallet.nonce) + 1n)
      .sign(sender)
      .build();
    const response = await fetch(`${api}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [transactionToJson(tx)] }),
    });
    const answer = (await response.json()) as { data: { accept: string[] } };
    expect(answer.data.accept).toEqual([tx.id]);
    const found = await eventually(
      async () => {
        const page = await get(`/transactions?address=${recipient}`);
        return page.meta.totalCount > 0 ? page.data[0] : undefined;
      },
      60_000,
      'the transfer in a block',
    );
    expect(found).toMatchObject({ id: tx.id, amount: '123', sender: senderAddress });
    expect((await get(`/wallets/${recipient}`)).data.balance).toBe('123');
  }, 120_000);

  it("/metrics follows the chain it forges, and counts the forger's requests to its relay", async () => {
    const metrics = api.replace(/\/api$/, '/metrics');
    const first = await scrape(metrics);
    const start = valueOf(first, 'lni_chain_height') ?? 0;
    expect(start).toBe(await height());
    const later = await eventually(
      async () => {
        const value = valueOf(await scrape(metrics), 'lni_chain_height') ?? 0;
        return value >= start + 1 ? value : undefined;
      },
      60_000,
      'the next forged block in lni_chain_height',
    );
    const families = await scrape(metrics);
    expect(later).toBeLessThanOrEqual(await height());
    expect(valueOf(families, 'lni_sync_blocks_behind')).toBe(0);
    expect(valueOf(families, 'lni_peers')).toBe(0);
    // The in-process forger follows its slots through the node's own P2P server.
    expect(
      valueOf(families, 'lni_p2p_messages_total', { route: 'getCurrentRound', result: 'ok' }),
    ).toBeGreaterThan(0);
    // Every series the Grafana dashboard reads is one this node exports.
    const dashboard = await readFile(
      join(import.meta.dirname, '../../docker/grafana/lni-node.json'),
      'utf8',
    );
    const read = new Set(
      [...dashboard.matchAll(/\b((?:lni|process|nodejs)_[a-z_0-9]+)/g)].map(([, name]) =>
        (name as string).replace(/_(bucket|sum|count)$/, ''),
      ),
    );
    expect(read.size).toBeGreaterThan(10);
    expect([...read].filter((name) => !families.has(name))).toEqual([]);
  }, 120_000);

  it("/health passes every check of a core node, its forger's relay included", async () => {
    const response = await fetch(api.replace(/\/api$/, '/health'));
    const body = (await response.json()) as { checks: Record<string, { ok: boolean }> };
    expect({ status: response.status, checks: Object.keys(body.checks).sort() }).toEqual({
      status: 200,
      checks: ['database', 'relay', 'sync'],
    });
    expect(body.checks.relay).toMatchObject({
      ok: true,
      relay: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    });
  });
});
