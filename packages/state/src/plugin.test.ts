import apiPlugin from '@lni/api';
import { addressFromPassphrase, loadNetworkConfig } from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePlugin } from './plugin.js';

const testnet = join(import.meta.dirname, '../../cli/networks/testnet');
const skip = process.env.LNI_TEST_POSTGRES === 'unavailable';

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: 5432,
    user: 'postgres',
    database: 'postgres',
  });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(skip)('state plugin on the testnet preset', () => {
  const name = `lni_test_${randomBytes(6).toString('hex')}`;
  let root: string;
  let kernel: TestKernel;
  const plugins = () => [
    {
      plugin: databasePlugin as Plugin<object>,
      options: {
        connection: { host: '127.0.0.1', port: 5432, username: 'postgres', database: name },
      },
    },
    { plugin: statePlugin as Plugin<object>, options: { verificationWorkers: 0 } },
    {
      plugin: apiPlugin as Plugin<object>,
      options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
    },
  ];
  const start = () =>
    startTestKernel({
      plugins: plugins(),
      paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
    });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-state-'));
    await cp(join(testnet, 'crypto'), join(root, 'config', 'crypto'), { recursive: true });
    await adminQuery(`CREATE DATABASE ${name}`);
    kernel = await start();
  }, 60_000);
  afterAll(async () => {
    await kernel?.stop();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await rm(root, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (path: string): Promise<any> =>
    (await fetch(`${kernel.cradle.apiServer.server.info.uri}/api${path}`)).json();

  it('applies the genesis block on an empty database and serves its delegates ranked', async () => {
    expect(kernel.cradle.blockProcessor.lastBlock?.height).toBe(1);
    const delegates = await get('/delegates?limit=100');
    expect(delegates.meta.totalCount).toBe(51);
    expect(delegates.data[0]).toMatchObject({ rank: 1, isResigned: false });
    const network = loadNetworkConfig(join(root, 'config', 'crypto'));
    const totalAmount = BigInt(network.genesisBlock.totalAmount as string);
    const votes = delegates.data.reduce(
      (sum: bigint, d: { votes: string }) => sum + BigInt(d.votes),
      0n,
    );
    expect(votes).toBe(totalAmount);
    // The premine moves from the genesis wallet (left negative, as in ARK) to the delegates:
    // coins are conserved, and the delegates hold all of it, each voting for itself.
    const sum = (list: { balance: string }[]) =>
      list.reduce((total, wallet) => total + BigInt(wallet.balance), 0n);
    expect(sum((await get('/wallets?limit=100')).data)).toBe(0n);
    const holders = await get('/wallets?attributes.delegate.resigned=false&limit=100');
    expect(holders.meta.totalCount).toBe(51);
    expect(sum(holders.data)).toBe(totalAmount);
    const { secrets } = JSON.parse(await readFile(join(testnet, 'delegates.json'), 'utf8')) as {
      secrets: string[];
    };
    const address = addressFromPassphrase(secrets[0] as string, network.network.pubKeyHash);
    const wallet = (await get(`/wallets/${address}`)).data;
    expect(wallet.attributes.vote).toBe(wallet.publicKey);
    expect(wallet.attributes.delegate.voteBalance).toBe(wallet.balance);
    expect((await get('/blocks/last')).data.height).toBe(1);
    expect((await get('/node/configuration')).data.transactionPool.maxTransactionsInPool).toBe(
      15_000,
    );
  });

  it('serves the forging round: a delegate of the genesis round for the current slot', async () => {
    const forging = kernel.app.container.resolve<{
      currentRound(): { round: number; currentForger: string; lastBlock: { height: number } };
    }>('forgingSource');
    const round = forging.currentRound();
    expect(round.round).toBe(1);
    expect(round.lastBlock.height).toBe(1);
    const delegates = await get(`/delegates/${round.currentForger}`);
    expect(delegates.data.publicKey).toBe(round.currentForger);
  });

  it('rebuilds the same state from storage after a restart', async () => {
    const before = await get('/wallets?limit=100&orderBy=address:asc');
    await kernel.stop();
    kernel = await start();
    expect(kernel.cradle.blockProcessor.lastBlock?.height).toBe(1);
    const after = await get('/wallets?limit=100&orderBy=address:asc');
    expect(after.data).toEqual(before.data);
  }, 60_000);
});
