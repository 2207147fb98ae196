import databasePlugin from '@lni/database';
import { runTestCommand, startTestKernel, type TestKernel } from '@lni/kernel/testing';
import apiPlugin from '@lni/api';
import statePlugin from '@lni/state';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';

// The first transfer of testnet's genesis block, which the state plugin applies at its first boot;
// its recipient is a genesis delegate, which sends its registration and its vote in the same block.
const GENESIS_RECIPIENT = 'ATyJ5ELpnA4x4W9H82cVVVw6DsgVErCeRj';
const GENESIS_TRANSFER = '32b419f8dc7f38a42533b129dcb0d127a116499cbe6aff8bbcdd4f2ba01c8f95';
const GENESIS_AMOUNT = '245098039215700';

// The local PostgreSQL, with a database of this run's own, dropped at the end.
const server = { host: '127.0.0.1', port: 5432, user: 'postgres' };
const databaseName = `address_watch_test_${randomBytes(5).toString('hex')}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ ...server, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

// The network's crypto files (testnet's genesis block among them), as the node's CLI ships them.
const testnetCrypto = join(
  dirname(createRequire(import.meta.url).resolve('@lni/cli')),
  '..',
  'networks',
  'testnet',
  'crypto',
);

/** The route's answer: a page of sightings, or the API's error. */
interface Answer {
  readonly meta: { page: number; limit: number; totalCount: number; pageCount: number };
  readonly data: readonly Record<string, unknown>[];
  readonly message?: string;
}

async function answer(response: Response): Promise<Answer> {
  return (await response.json()) as Answer;
}

describe('address-watch in a node with a database, the ledger and the API', () => {
  let root: string;
  let kernel: TestKernel;
  let api: string;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${databaseName}`);
    root = await mkdtemp(join(tmpdir(), 'address-watch-'));
    const paths = {
      config: join(root, 'config'),
      data: join(root, 'data'),
      log: join(root, 'data', 'node.log'),
    };
    await cp(testnetCrypto, join(paths.config, 'crypto'), { recursive: true });
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    kernel = await startTestKernel({
      paths,
      plugins: [
        { plugin: databasePlugin },
        { plugin: statePlugin },
        { plugin: apiPlugin, options: { port } },
        { plugin, options: {} },
      ],
      env: {
        CORE_DB_HOST: server.host,
        CORE_DB_PORT: String(server.port),
        CORE_DB_USERNAME: server.user,
        CORE_DB_DATABASE: databaseName,
        ADDRESS_WATCH_ADDRESSES: `${GENESIS_RECIPIENT}, AJjv7WztjJNYHrLAeveG5NgHWp6699ZJwD`,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await kernel?.stop();
    await rm(root, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  it('records the transactions touching a watched address in its own table', async () => {
    const rows = await kernel.cradle.database.manager.query(
      'SELECT address, transaction_id, block_height, amount, direction FROM address_watch_sightings',
    );
    expect(rows).toHaveLength(3);
    expect(rows).toContainEqual({
      address: GENESIS_RECIPIENT,
      transaction_id: GENESIS_TRANSFER,
      block_height: 1,
      amount: GENESIS_AMOUNT,
      direction: 'in',
    });
    // Its delegate registration and its vote move no amount.
    const sent = rows.filter((row: { direction: string }) => row.direction === 'out');
    expect(sent).toEqual([
      expect.objectContaining({ address: GENESIS_RECIPIENT, amount: '0' }),
      expect.objectContaining({ address: GENESIS_RECIPIENT, amount: '0' }),
    ]);
  });

  it('loses the sightings of a block taken off the chain, with the block', async () => {
    const rollback = new Error('rolled back: the test only looks');
    let left: unknown;
    await expect(
      kernel.cradle.database.transaction(async (manager) => {
        await manager.query('DELETE FROM blocks WHERE height = 1');
        left = await manager.query('SELECT count(*)::int AS n FROM address_watch_sightings');
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(left).toEqual([{ n: 0 }]);
  });

  it('reports how many addresses it watches and the last height it saw in /health', async () => {
    const report = await kernel.cradle.healthChecks.run(1_000);
    expect(report.checks['address-watch']).toEqual({ ok: true, watched: 2, lastHeightSeen: 1 });
  });

  it('counts its sightings in the node metrics', async () => {
    const text = await kernel.cradle.metrics.metrics();
    expect(text).toContain('address_watch_sightings_total{direction="in"} 1');
    expect(text).toContain('address_watch_sightings_total{direction="out"} 2');
  });

  it('serves the sightings of an address, a page at a time', async () => {
    const response = await fetch(`${api}/api/address-watch/${GENESIS_RECIPIENT}?limit=10`);
    expect(response.status).toBe(200);
    const first = await answer(response);
    expect(first.meta).toEqual({ page: 1, limit: 10, totalCount: 3, pageCount: 1 });
    expect(first.data).toContainEqual({
      transactionId: GENESIS_TRANSFER,
      height: 1,
      amount: GENESIS_AMOUNT,
      direction: 'in',
    });
    const second = await answer(
      await fetch(`${api}/api/address-watch/${GENESIS_RECIPIENT}?page=2&limit=2`),
    );
    expect(second).toMatchObject({ meta: { totalCount: 3, pageCount: 2 }, data: [{}] });
    const past = await answer(
      await fetch(`${api}/api/address-watch/${GENESIS_RECIPIENT}?page=3&limit=2`),
    );
    expect(past).toMatchObject({ meta: { totalCount: 3 }, data: [] });
  });

  it('answers 422 naming the parameter for a malformed address or page', async () => {
    const badAddress = await fetch(`${api}/api/address-watch/not-an-address`);
    expect(badAddress.status).toBe(422);
    expect((await answer(badAddress)).message).toBe(
      '"address" must be a 34-character base58 address',
    );
    const badPage = await fetch(`${api}/api/address-watch/${GENESIS_RECIPIENT}?page=0`);
    expect(badPage.status).toBe(422);
    expect((await answer(badPage)).message).toContain('"page" must be greater than or equal to 1');
  });

  it('offers `kernel address-watch:sightings`, which prints what the API answers', async () => {
    const { output } = await runTestCommand({
      plugins: [{ plugin }],
      plugin: 'address-watch',
      command: 'sightings',
      args: { address: GENESIS_RECIPIENT },
      flags: { api, limit: '2' },
    });
    expect(output).toHaveLength(3);
    expect(output).toContain(`height 1 in ${GENESIS_AMOUNT} ${GENESIS_TRANSFER}`);
    expect(output.at(-1)).toBe('(2 of 3)');
  });
});

describe('address-watch options', () => {
  it('refuses an address that is not one, naming the option, as the node would at start', async () => {
    await expect(
      startTestKernel({ plugins: [{ plugin, options: { addresses: ['nope'] } }] }),
    ).rejects.toThrow(
      `plugin 'address-watch', option 'addresses.0': "address" must be a 34-character base58 address`,
    );
  });
});
