import { databasePlugin } from '@lni/database';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import type { Wallet } from '@lni/state';
import '@lni/state/contracts';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseEnv } from '../../../test/support/postgres.js';
import { storedBlock, TESTNET_CRYPTO } from './__fixtures__/stored-chain.js';
import { postgresSkipReason, writeHead, writeWallets } from './__fixtures__/wallet-table.js';
import { sqlLedgerPlugin } from './plugin.js';

const KEY = `03${'ab'.repeat(32)}`;
const delegate: Wallet = {
  address: 'DDelegateAddress',
  publicKey: KEY,
  balance: 9_007_199_254_740_993n,
  nonce: 2n,
  attributes: {
    delegate: {
      username: 'genesis_7',
      voteBalance: 500n,
      forgedFees: 1n,
      forgedRewards: 2n,
      producedBlocks: 3,
      rank: 1,
    },
  },
};
const voter: Wallet = {
  address: 'DVoter',
  balance: 40n,
  nonce: 0n,
  attributes: { vote: KEY },
};
const FAR = () => Date.now() + 60_000;

describe.skipIf(postgresSkipReason)('sql-ledger plugin', () => {
  let root: string;
  let node: TestKernel;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-sql-ledger-'));
    await cp(TESTNET_CRYPTO, join(root, 'config', 'crypto'), { recursive: true });
    const created = await createTestDatabase();
    drop = created.drop;
    node = await startTestKernel({
      mode: 'core',
      plugins: [
        { plugin: databasePlugin, options: {} },
        { plugin: sqlLedgerPlugin, options: { pollMs: 60_000 } },
      ],
      env: databaseEnv(created.connection),
      paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
    });
  });
  afterAll(async () => {
    await node?.stop();
    await drop?.();
    await rm(root, { recursive: true, force: true });
  });

  it('serves the API what it reads from state, with no state plugin running', async () => {
    const { database, blockStorage, headFollower, ledger } = node.cradle;
    expect(node.app.container.hasRegistration('blockProcessor')).toBe(false);
    expect(ledger.tip()).toBeUndefined();
    expect(ledger.chainContext().height).toBe(0);

    // What the writer commits with block 1: the block, the wallets, the head.
    const genesis = storedBlock(1);
    await blockStorage.saveBlocks([genesis]);
    await writeWallets(database, [delegate, voter], 1);
    await writeHead(database, {
      height: 1,
      blockId: genesis.block.id,
      supply: 123n,
      walletCount: 2,
    });
    await headFollower.wake();

    expect(ledger.tip()).toBe(genesis.block.id);
    expect(ledger.lastBlock()).toEqual({ id: genesis.block.id, height: 1, timestamp: 8 });
    expect(ledger.supply()).toBe(123n);
    const context = ledger.chainContext();
    expect(context.height).toBe(1);
    expect(context.epochStart).toBe(node.cradle.milestones.at(1).epoch);
    expect(context.usernameOf?.(KEY)).toBe('genesis_7');
    expect(context.addressOf(KEY)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{34}$/);

    const voters = await ledger.wallets(
      {
        conditions: [{ kind: 'in', field: 'attributes.vote', values: [KEY] }],
        orderBy: [{ field: 'balance', direction: 'desc' }],
        offset: 0,
        limit: 10,
      },
      FAR(),
    );
    expect(voters.results.map((w) => w.address)).toEqual(['DVoter']);
    expect(voters.totalCount).toBe(1);
    const delegates = await ledger.delegates(
      { conditions: [], orderBy: [{ field: 'votes', direction: 'desc' }], offset: 0, limit: 10 },
      FAR(),
    );
    expect(delegates.results).toEqual([delegate]);
    expect(node.cradle.networkConfig.network.pubKeyHash).toBe(23);
    await expect(
      node.cradle.missedSlots.byDelegate(KEY, { offset: 0, limit: 10 }),
    ).resolves.toEqual({ slots: [], totalCount: 0 });
  });

  it('finds a wallet by address, by public key and by delegate username', async () => {
    const { ledger } = node.cradle;
    for (const id of ['DDelegateAddress', KEY, 'genesis_7']) {
      expect(await ledger.findWallet(id)).toEqual(delegate);
    }
    expect(await ledger.findWallet('DVoter')).toEqual(voter);
    expect(await ledger.findWallet('nobody')).toBeUndefined();
  });

  it('stops start-up when the network files are missing, naming them', async () => {
    await expect(
      startTestKernel({
        mode: 'core',
        plugins: [
          { plugin: databasePlugin, options: {} },
          { plugin: sqlLedgerPlugin, options: {} },
        ],
      }),
    ).rejects.toThrow(/sql-ledger.*crypto|crypto.*sql-ledger/s);
  });

  it('refuses an option out of range before anything starts, naming it', async () => {
    await expect(
      startTestKernel({
        mode: 'core',
        plugins: [
          { plugin: databasePlugin, options: {} },
          { plugin: sqlLedgerPlugin, options: { pollMs: 0 } },
        ],
      }),
    ).rejects.toThrow(/pollMs/);
  });
});
