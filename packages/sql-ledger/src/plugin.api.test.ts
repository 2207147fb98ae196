import apiPlugin from '@lni/api';
import { databasePlugin } from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import type { Wallet } from '@lni/state';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseEnv } from '../../../test/support/postgres.js';
import { storedBlock, TESTNET_CRYPTO } from './__fixtures__/stored-chain.js';
import { postgresSkipReason, writeHead, writeWallets } from './__fixtures__/wallet-table.js';
import { sqlLedgerPlugin } from './plugin.js';

const KEY = `03${'cd'.repeat(32)}`;
const delegate: Wallet = {
  address: 'DDelegate',
  publicKey: KEY,
  balance: 1_000n,
  nonce: 1n,
  attributes: {
    delegate: {
      username: 'genesis_9',
      voteBalance: 70n,
      forgedFees: 0n,
      forgedRewards: 0n,
      producedBlocks: 0,
      rank: 1,
    },
  },
};
const voters: Wallet[] = [30n, 40n].map((balance, i) => ({
  address: `DVoter${i}`,
  balance,
  nonce: 0n,
  attributes: { vote: KEY },
}));

describe.skipIf(postgresSkipReason)('the API on the SQL ledger, without state', () => {
  let root: string;
  let node: TestKernel;
  let drop: () => Promise<void>;
  let get: (path: string) => Promise<{ status: number; body: Record<string, unknown> }>;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-sql-ledger-api-'));
    await cp(TESTNET_CRYPTO, join(root, 'config', 'crypto'), { recursive: true });
    const created = await createTestDatabase();
    drop = created.drop;
    node = await startTestKernel({
      plugins: [
        { plugin: databasePlugin, options: {} },
        { plugin: sqlLedgerPlugin, options: { pollMs: 60_000 } },
        { plugin: apiPlugin as Plugin<object>, options: { host: '127.0.0.1', port: 0 } },
      ],
      env: databaseEnv(created.connection),
      paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
    });
    const { database, blockStorage, headFollower } = node.cradle;
    const genesis = storedBlock(1);
    await blockStorage.saveBlocks([genesis]);
    await writeWallets(database, [delegate, ...voters], 1);
    await writeHead(database, {
      height: 1,
      blockId: genesis.block.id,
      supply: 1_070n,
      walletCount: 3,
    });
    await headFollower.wake();
    const uri = node.cradle.apiServer.server.info.uri;
    get = async (path) => {
      const response = await fetch(`${uri}${path}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
  });
  afterAll(async () => {
    await node?.stop();
    await drop?.();
    await rm(root, { recursive: true, force: true });
  });

  it('answers the wallet and delegate routes from the database', async () => {
    const wallet = await get('/api/wallets/genesis_9');
    expect(wallet.status).toBe(200);
    expect(wallet.body.data).toMatchObject({ address: 'DDelegate', balance: '1000' });

    const delegates = await get('/api/delegates');
    expect(delegates.body.data).toEqual([
      expect.objectContaining({ username: 'genesis_9', address: 'DDelegate', votes: '70' }),
    ]);
    const voting = await get('/api/delegates/DDelegate/voters');
    expect((voting.body.data as { address: string }[]).map((w) => w.address)).toEqual([
      'DVoter1',
      'DVoter0',
    ]);
    expect(voting.body.meta).toMatchObject({ totalCount: 2 });
    const top = await get('/api/wallets/top?limit=1');
    expect((top.body.data as { address: string }[]).map((w) => w.address)).toEqual(['DDelegate']);
  });

  it('answers a missing wallet 404 and a bad query 422, naming the field', async () => {
    expect((await get('/api/wallets/nobody')).status).toBe(404);
    const bad = await get('/api/wallets?balance=lots');
    expect(bad.status).toBe(422);
    expect(String(bad.body.message)).toMatch(/balance/);
  });
});
