import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { addressFromPassphrase, loadNetworkConfig } from '@lni/crypto';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { kernel, sh } from '../support/shell.js';
import { ApiClient, stopNode } from '../support/node-harness.js';
import { createTestDatabase, databaseEnv, type ServerConnection } from '../support/postgres.js';
import { scrape, valueOf } from '../support/prometheus.js';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const example = join(repository, 'examples', 'plugin-address-watch');

// examples/plugin-address-watch as its author would ship it: built and tested against the packed
// packages outside the workspace, installed with `kernel plugin:add`, and run in a forging node.
describe('the example plugin, address-watch, from its package to a running node', () => {
  let root: string;
  let plugin: string;
  let config: string;
  let database: { connection: ServerConnection; drop(): Promise<void> };
  let node: KernelProcess | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-example-plugin-'));
    // The example's package.json takes the node's packages from ../../packs: keep that layout.
    plugin = join(root, 'examples', 'plugin-address-watch');
    config = join(root, 'config');
    await cp(example, plugin, {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|dist|package-lock\.json)$/.test(source),
    });
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await stopNode(node);
    await database?.drop();
    await rm(root, { recursive: true, force: true });
  });

  it('packs the node, and the example installs, builds and passes its own tests', async () => {
    // What `npm run pack` does after its build (test:plugins has built already).
    await mkdir(join(root, 'packs'));
    const pack = await sh(
      'npm',
      ['pack', '--workspaces', '--pack-destination', join(root, 'packs')],
      repository,
    );
    expect(pack.code, pack.out).toBe(0);

    const install = await sh('npm', ['install', '--no-audit', '--no-fund'], plugin);
    expect(install.code, install.out).toBe(0);
    const build = await sh('npm', ['run', 'build'], plugin);
    expect(build.code, build.out).toBe(0);
    const test = await sh('npm', ['test'], plugin, { FORCE_COLOR: '0', NO_COLOR: '1' });
    expect(test.code, test.out).toBe(0);
    expect(test.out).toMatch(/Tests\s+10 passed/);
  });

  it('kernel plugin:add installs it into a core node', async () => {
    const publish = await kernel(['config:publish', '--config', config]);
    expect(publish.code, publish.stderr).toBe(0);
    const added = await kernel(['plugin:add', plugin, '--mode', 'core', '--config', config]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain("(plugin 'address-watch')");
    const app = JSON.parse(await readFile(join(config, 'app.json'), 'utf8'));
    expect(app.core.plugins).toContainEqual({ package: 'lni-plugin-address-watch', options: {} });
  });

  it('sees a transfer to a watched address: route, health, metric, table and command', async () => {
    const network = loadNetworkConfig(join(config, 'crypto'));
    const recipientPassphrase = 'the example plugin watches this wallet';
    const watched = addressFromPassphrase(recipientPassphrase, network.network.pubKeyHash);
    const apiPort = await freePort();
    const base = `http://127.0.0.1:${apiPort}`;
    node = runKernel(
      ['start', '--mode', 'core', '--config', config, '--data', join(root, 'data')],
      {
        ...databaseEnv(database.connection),
        CORE_API_PORT: String(apiPort),
        // Not the default 4000: the in-process forger follows the node's own P2P port.
        CORE_P2P_PORT: String(await freePort()),
        CORE_LOG_LEVEL: 'info',
        ADDRESS_WATCH_ADDRESSES: watched,
      },
    );
    await node.waitFor('"msg":"Node started"', 120_000);
    const api = new ApiClient(`${base}/api`);
    await api.reach(2, 60_000);
    const { id } = await api.postTransfer(config, recipientPassphrase, 1_234_567);

    const page = await eventually(
      async () => {
        const answer = await api.get(`/address-watch/${watched}`);
        return answer.data.length > 0 ? answer : undefined;
      },
      60_000,
      'the transfer sighted by address-watch',
    );
    expect(page.meta).toMatchObject({ totalCount: 1 });
    expect(page.data).toEqual([
      { transactionId: id, height: expect.any(Number), amount: '1234567', direction: 'in' },
    ]);
    const height = page.data[0].height as number;
    const bad = await fetch(`${base}/api/address-watch/nope`);
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { message: string }).message).toContain('"address"');

    const health = (await (await fetch(`${base}/health`)).json()) as {
      checks: Record<string, { ok: boolean; watched: number; lastHeightSeen: number }>;
    };
    expect(health.checks['address-watch']).toMatchObject({ ok: true, watched: 1 });
    expect(health.checks['address-watch']?.lastHeightSeen).toBeGreaterThanOrEqual(height);
    const families = await scrape(`${base}/metrics`);
    expect(valueOf(families, 'address_watch_sightings_total', { direction: 'in' })).toBe(1);

    const client = new pg.Client({
      host: database.connection.host,
      port: database.connection.port,
      user: database.connection.username,
      database: database.connection.database,
    });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT address, transaction_id, block_height, amount, direction FROM address_watch_sightings',
      );
      expect(rows).toEqual([
        {
          address: watched,
          transaction_id: id,
          block_height: height,
          amount: '1234567',
          direction: 'in',
        },
      ]);
    } finally {
      await client.end();
    }

    const sightings = await kernel([
      'address-watch:sightings',
      watched,
      '--api',
      base,
      '--config',
      config,
      '--data',
      join(root, 'data'),
    ]);
    expect(sightings).toEqual({
      code: 0,
      stdout: `height ${height} in 1234567 ${id}\n`,
      stderr: '',
    });

    expect(await stopNode(node)).toBe(0);
    node = undefined;
  }, 240_000);
});
