import { Connection } from '@arkecosystem/client';
import apiPlugin from '@lni/api';
import type { LedgerReader } from '@lni/state/contracts';
import {
  addressFromPassphrase,
  addressFromPublicKey,
  forgeBlock,
  keysFromPassphrase,
  loadNetworkConfig,
  Milestones,
  multiPayment,
  transfer,
  vote,
  type BlockData,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin, { type BlockWithTransactions } from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { storedTransactionOf, WalletQueryEngine, WalletRepository } from '@lni/state';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresSkipReason } from '../support/postgres.js';

// The testnet preset the CLI ships: real network parameters and milestones.
const network = loadNetworkConfig(
  join(import.meta.dirname, '../../packages/cli/networks/testnet/crypto'),
);
const { pubKeyHash } = network.network;
const milestones = new Milestones(network.milestones);
const milestone = milestones.at(2);
const generator = keysFromPassphrase('generator');
const alice = 'alice passphrase';
const bob = 'bob passphrase';
const carol = addressFromPassphrase('carol passphrase', pubKeyHash);
const aliceAddress = addressFromPassphrase(alice, pubKeyHash);
const bobAddress = addressFromPassphrase(bob, pubKeyHash);
const alicePublicKey = keysFromPassphrase(alice).publicKey.toString('hex');

const options = { network: pubKeyHash, milestone };
const block2: TransactionData[] = [
  transfer(options)
    .recipientId(bobAddress)
    .amount(500)
    .nonce(1)
    .vendorField('rent')
    .sign(alice)
    .build(),
  transfer(options).recipientId(carol).amount(7).nonce(1).sign(bob).build(),
];
const block3: TransactionData[] = [
  multiPayment(options).addPayment(carol, 3).addPayment(bobAddress, 4).nonce(2).sign(alice).build(),
  vote(options).vote(generator.publicKey.toString('hex')).nonce(3).sign(alice).build(),
];

function stored(block: BlockData<TransactionData>): BlockWithTransactions {
  const { transactions = [], ...header } = block;
  return {
    block: header,
    transactions: transactions.map((tx, sequence) => storedTransactionOf(tx, block, sequence)),
  };
}

// Blocks 2 and 3 were forged an hour ago, so that GET /api/node/fees counts them.
const anHourAgo = Math.floor((Date.now() - Date.parse(milestone.epoch)) / 1000) - 3600;
const first = forgeBlock({ transactions: [], timestamp: 0, keys: generator, milestones });
const second = forgeBlock({
  transactions: block2,
  previousBlock: first,
  timestamp: anHourAgo,
  keys: generator,
  milestones,
});
const third = forgeBlock({
  transactions: block3,
  previousBlock: second,
  timestamp: anHourAgo + 8,
  keys: generator,
  milestones,
});

// Wallets as state would hold them; only what the routes read (public keys, usernames).
const wallets = new WalletRepository();
wallets.update(aliceAddress, { publicKey: alicePublicKey });
wallets.update(addressFromPublicKey(generator.publicKey, pubKeyHash), {
  publicKey: generator.publicKey.toString('hex'),
  attributes: {
    delegate: {
      username: 'forger',
      voteBalance: 0n,
      forgedFees: 0n,
      forgedRewards: 0n,
      producedBlocks: 3,
    },
  },
});
const engine = new WalletQueryEngine({ walletRepository: wallets });
const ledger: LedgerReader = {
  wallets: (search) => engine.wallets(search),
  delegates: (search) => engine.delegates(search),
  findWallet: (id) => wallets.find(id),
  supply: () => 0n,
  // The chain stays at the third block: every chain route below is answered through the cache.
  tip: () => third.id,
  lastBlock: () => third,
  chainContext: () => ({
    height: 3,
    epochStart: milestone.epoch,
    addressOf: (publicKey) => addressFromPublicKey(publicKey, pubKeyHash),
    usernameOf: (publicKey) => wallets.byPublicKey(publicKey)?.attributes.delegate?.username,
  }),
};
const ledgerPlugin: Plugin<object> = {
  name: 'state',
  register: ({ container }) => {
    container.register({
      ledger: { resolve: () => ledger, lifetime: 'SINGLETON' },
      networkConfig: { resolve: () => network, lifetime: 'SINGLETON' },
    } as never);
  },
};

describe.skipIf(postgresSkipReason)(
  'transactions and blocks over the API, stored in PostgreSQL',
  () => {
    let kernel: TestKernel;
    let uri: string;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const database = await createTestDatabase();
      drop = database.drop;
      kernel = await startTestKernel({
        plugins: [
          {
            plugin: databasePlugin as Plugin<object>,
            options: { connection: database.connection },
          },
          { plugin: ledgerPlugin },
          {
            plugin: apiPlugin as Plugin<object>,
            options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
          },
        ],
      });
      await kernel.cradle.blockStorage.saveBlocks([first, second, third].map(stored));
      await kernel.cradle.roundStorage.saveRound([
        { round: 1, publicKey: generator.publicKey.toString('hex'), balance: 12_345n },
        { round: 1, publicKey: alicePublicKey, balance: 99n },
      ]);
      uri = kernel.cradle.apiServer.server.info.uri;
    }, 60_000);
    afterAll(async () => {
      await kernel?.stop();
      await drop?.();
    });

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const get = async (path: string): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${uri}${path}`);
      return { status: response.status, body: await response.json() };
    };
    const ids = (body: { data: { id: string }[] }) => body.data.map((tx) => tx.id).sort();

    it('finds transactions by address: sender, recipient or multipayment recipient, OR across a list', async () => {
      const forCarol = await get(`/api/transactions?address=${carol}`);
      expect(ids(forCarol.body)).toEqual([block2[1]?.id, block3[0]?.id].sort());
      const both = await get(`/api/transactions?address=${carol},${aliceAddress}`);
      expect(both.body.meta.totalCount).toBe(4);
    });

    it('walks an index by the cursor meta.next carries, with exact totals said to be exact', async () => {
      const all = await get(`/api/transactions?address=${carol},${aliceAddress}`);
      expect(all.body.meta).toMatchObject({ totalCount: 4, totalCountIsEstimate: false });
      const walked: string[] = [];
      let next: string | null = `/api/transactions?address=${carol},${aliceAddress}&limit=1`;
      while (next !== null) {
        const page = await get(next);
        expect(page.status).toBe(200);
        walked.push(...page.body.data.map((tx: { id: string }) => tx.id));
        next = page.body.meta.next as string | null;
        if (next !== null) expect(next).toMatch(/[?&]cursor=[\w-]+/);
      }
      expect(walked).toEqual(all.body.data.map((tx: { id: string }) => tx.id));
      // Blocks page by cursor the same way, oldest first here.
      const firstBlock = await get('/api/blocks?orderBy=height:asc&limit=2');
      const nextBlocks = await get(firstBlock.body.meta.next as string);
      expect(nextBlocks.body.data.map((b: { height: number }) => b.height)).toEqual([3]);
      expect(nextBlocks.body.meta.next).toBeNull();
      // A cursor of another order, or not one at all, is the client's mistake.
      const cursor = new URL(firstBlock.body.meta.next as string, uri).searchParams.get('cursor');
      const foreign = await get(`/api/transactions?orderBy=amount:asc&cursor=${cursor}`);
      expect(foreign.status).toBe(422);
      expect(foreign.body.message).toMatch(/cursor/);
      const garbage = await get('/api/transactions?cursor=not-a-cursor');
      expect(garbage.status).toBe(422);
      expect(garbage.body.message).toMatch(/"cursor"/);
      // A cursor of blocks names no wallet: the wallet index says so.
      const wallets = await get(`/api/wallets?cursor=${cursor}`);
      expect(wallets.status).toBe(422);
      expect(wallets.body.message).toMatch(/cursor/);
      // Locks take cursors of their own order only, and say so rather than ignore another's.
      const locks = await get(`/api/locks?cursor=${cursor}`);
      expect(locks.status).toBe(422);
      expect(locks.body.message).toMatch(/^"cursor" does not belong to this order/);
    });

    it('answers in ARK 3.0 shape, with signatures, sender address and confirmations', async () => {
      const { body } = await get(`/api/transactions/${block2[0]?.id}`);
      expect(body.data).toMatchObject({
        id: block2[0]?.id,
        blockId: second.id,
        type: 0,
        typeGroup: 1,
        amount: '500',
        sender: aliceAddress,
        senderPublicKey: alicePublicKey,
        recipient: bobAddress,
        vendorField: 'rent',
        signature: block2[0]?.signature,
        confirmations: 2,
        nonce: '1',
        timestamp: { epoch: anHourAgo },
      });
    });

    it('filters by fields and asset paths, AND across fields, and orders by any field', async () => {
      const votes = await get(
        `/api/transactions?type=3&asset.votes=%2B${generator.publicKey.toString('hex')}`,
      );
      expect(ids(votes.body)).toEqual([block3[1]?.id]);
      const ordered = await get('/api/transactions?type=0,6&orderBy=amount:asc');
      expect(ordered.body.data.map((tx: { amount: string }) => tx.amount)).toEqual([
        '0',
        '7',
        '500',
      ]);
      const none = await get(`/api/transactions?type=0&sender=${carol}`);
      expect(none.body.meta.totalCount).toBe(0);
    });

    it('lists a wallet’s sent, received and vote transactions', async () => {
      expect(
        (await get(`/api/wallets/${aliceAddress}/transactions/sent`)).body.meta.totalCount,
      ).toBe(3);
      expect(ids((await get(`/api/wallets/${aliceAddress}/votes`)).body)).toEqual([block3[1]?.id]);
      // carol never signed: she is known to the ledger only as a recipient.
      expect((await get(`/api/wallets/${carol}/transactions`)).status).toBe(404);
    });

    it('serves blocks by id and height, first and last, with their transactions', async () => {
      expect((await get('/api/blocks/last')).body.data).toMatchObject({
        id: third.id,
        height: 3,
        previous: second.id,
        transactions: 2,
        generator: { username: 'forger', publicKey: generator.publicKey.toString('hex') },
        confirmations: 1,
      });
      expect((await get('/api/blocks/first')).body.data.height).toBe(1);
      expect((await get('/api/blocks/2')).body.data.id).toBe(second.id);
      expect((await get(`/api/blocks/${second.id}`)).body.data.height).toBe(2);
      expect(ids((await get(`/api/blocks/${third.id}/transactions`)).body)).toEqual(
        block3.map((tx) => tx.id).sort(),
      );
      // Filtered as /api/transactions is: carol is paid by the multipayment only.
      expect(
        ids((await get(`/api/blocks/${third.id}/transactions?address=${carol}`)).body),
      ).toEqual([block3[0]?.id]);
      expect(
        (await get('/api/delegates/forger/blocks?orderBy=height:asc')).body.data.map(
          (b: { height: number }) => b.height,
        ),
      ).toEqual([1, 2, 3]);
      expect((await get('/api/blocks/99')).status).toBe(404);
    });

    it('serves votes by id, the delegates of a round, and the fees and types', async () => {
      expect((await get(`/api/votes/${block3[1]?.id}`)).body.data.asset).toEqual({
        votes: [`+${generator.publicKey.toString('hex')}`],
      });
      expect((await get(`/api/votes/${block2[0]?.id}`)).status).toBe(404);
      expect((await get('/api/rounds/1/delegates')).body.data).toEqual([
        { publicKey: generator.publicKey.toString('hex'), votes: '12345' },
        { publicKey: alicePublicKey, votes: '99' },
      ]);
      expect((await get('/api/rounds/2/delegates')).status).toBe(404);
      const fees = await get('/api/transactions/fees');
      expect(fees.body.data[1].transfer).toBe(String(milestone.fees.staticFees.transfer));
      expect((await get('/api/transactions/types')).body.data[1].Vote).toBe(3);
    });

    it('sums up the fees each type paid over the last days', async () => {
      const paid = (type: number) =>
        [...block2, ...block3].filter((tx) => tx.type === type).map((tx) => tx.fee);
      const statistics = (fees: bigint[]) => {
        const sum = fees.reduce((total, fee) => total + fee, 0n);
        const count = BigInt(fees.length);
        const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const lower = sorted[Math.floor((sorted.length - 1) / 2)] as bigint;
        const upper = sorted[Math.ceil((sorted.length - 1) / 2)] as bigint;
        return {
          avg: String((2n * sum + count) / (2n * count)),
          median: String((lower + upper + 1n) / 2n),
          min: String(sorted[0]),
          max: String(sorted.at(-1)),
          sum: String(sum),
        };
      };
      const { status, body } = await get('/api/node/fees?days=1');
      expect(status).toBe(200);
      expect(body).toEqual({
        meta: { days: 1 },
        data: {
          1: {
            transfer: statistics(paid(0)),
            multiPayment: statistics(paid(6)),
            vote: statistics(paid(3)),
          },
        },
      });
      expect((await get('/api/node/fees')).body.meta).toEqual({ days: 7 });
      const tooMany = await get('/api/node/fees?days=31');
      expect(tooMany.status).toBe(422);
      expect(tooMany.body.message).toContain('"days"');
    });

    it('rejects bad input with 422 naming the parameter', async () => {
      const removed = await get(`/api/transactions?addresses=${carol}`);
      expect(removed.status).toBe(422);
      expect(removed.body.message).toContain('"addresses" was removed in 3.0');
      const badAmount = await get('/api/transactions?amount=-1');
      expect(badAmount.status).toBe(422);
      expect(badAmount.body.message).toContain('"amount"');
      const hostile = await get(
        `/api/transactions?vendorField=${encodeURIComponent("'; DROP TABLE transactions; --")}`,
      );
      expect(hostile.status).toBe(200);
      expect(hostile.body.meta.totalCount).toBe(0);
    });

    it('answers 200, 404 or 422 to 10,000 random query strings, never 500', async () => {
      const paths = [
        '/api/transactions',
        '/api/blocks',
        '/api/wallets',
        '/api/delegates',
        '/api/votes',
        '/api/locks',
        `/api/wallets/${aliceAddress}/locks`,
        '/api/delegates/forger/voters',
        '/api/node/fees',
      ];
      // Names a lookup in a plain object would find on Object.prototype.
      const inherited = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
      const names = [
        'days',
        'amount',
        'amount.from',
        'fee.to',
        'type',
        'typeGroup',
        'sender',
        'recipient',
        'address',
        'asset.votes',
        'asset.payments.recipientId',
        'vendorField',
        'height',
        'timestamp.unix',
        'balance',
        'votes',
        'rank',
        'isResigned',
        'production.approval',
        'blocks.last.timestamp.human',
        'attributes.delegate.username',
        'orderBy',
        'page',
        'limit',
        'offset',
        'unknown',
        'addresses',
        'lockId',
        'isExpired',
        ...inherited,
        '__proto__.polluted',
        'constructor.prototype.polluted',
        'attributes.__proto__',
        'asset.constructor',
        'timestamp.prototype',
      ];
      const value = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom(
          '-1',
          '1e309',
          '99999999999999999999999999',
          'true',
          ',,',
          'amount:sideways',
          '%',
          ...inherited,
          'constructor:asc',
          'toString:desc',
          'forged.rewards:asc,__proto__',
          '__proto__,forged.rewards:asc',
          'balance:desc,constructor.prototype',
        ),
        fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...paths),
          fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 4 }),
          async (path, params) => {
            const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
            const response = await fetch(`${uri}${path}?${query}`);
            await response.arrayBuffer();
            expect([200, 404, 422], `${path}?${query}`).toContain(response.status);
          },
        ),
        { numRuns: 10_000 },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }, 180_000);

    it('serves the network as loaded and the node status', async () => {
      const crypto = await get('/api/node/configuration/crypto');
      expect(crypto.body.data.network.nethash).toBe(network.network.nethash);
      expect(crypto.body.data.milestones).toEqual(network.milestones);
      const status = await get('/api/node/status');
      // The last block is an hour old and the node knows no peer: stuck, not synced.
      expect(status.body.data).toMatchObject({ synced: false, now: 3 });
      expect(status.body.data.blocksCount).toBeGreaterThanOrEqual(3600 / milestone.blocktime - 1);
      const configuration = await get('/api/node/configuration');
      expect(configuration.body.data).toMatchObject({
        nethash: network.network.nethash,
        constants: { activeDelegates: milestone.activeDelegates },
      });
    });

    it('works with @arkecosystem/client 3.x unchanged', async () => {
      const client = new Connection(`${uri}/api`).withOptions({ timeout: 20_000 });
      expect((await client.api('blocks').last()).body.data.height).toBe(3);
      expect((await client.api('blocks').get('2')).body.data.id).toBe(second.id);
      const forCarol = await client
        .api('transactions')
        .all({ address: carol, orderBy: 'amount:desc' });
      expect(forCarol.body.meta.totalCount).toBe(2);
      expect(forCarol.body.data[0]?.amount).toBe('7');
      expect((await client.api('transactions').get(block2[0]?.id as string)).body.data.sender).toBe(
        aliceAddress,
      );
      expect((await client.api('wallets').get(aliceAddress)).body.data.publicKey).toBe(
        alicePublicKey,
      );
      expect(
        (await client.api('wallets').transactionsSent(aliceAddress)).body.meta.totalCount,
      ).toBe(3);
      expect((await client.api('delegates').get('forger')).body.data.username).toBe('forger');
      expect((await client.api('node').crypto()).body.data.network.nethash).toBe(
        network.network.nethash,
      );
      expect((await client.api('transactions').types()).body.data[1].Transfer).toBe(0);
      // The client types this body as one type's statistics; the data is keyed by type group.
      const fees = (await client.api('node').fees(1)).body as unknown as {
        data: Record<string, Record<string, { sum: string }>>;
      };
      expect(fees.data[1]?.vote?.sum).toBe(String(block3[1]?.fee));
    });
  },
);
