import { Connection } from '@arkecosystem/client';
import {
  addressFromPassphrase,
  htlcClaim,
  htlcLock,
  htlcRefund,
  keysFromPassphrase,
  loadNetworkConfig,
  sha256,
  type TransactionData,
} from '@lni/crypto';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerNode, TESTNET, type LedgerNode } from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

// Routes of ARK Core 3.x that clients call, on a real ledger whose HTLC locks were opened,
// claimed and refunded by transactions in blocks.
const network = loadNetworkConfig(join(TESTNET, 'crypto'));
const { pubKeyHash } = network.network;
const recipient = addressFromPassphrase('the recipient of every lock', pubKeyHash);
const secret = () => randomBytes(32).toString('hex');
const hashOf = (hex: string) => sha256(Buffer.from(hex, 'hex')).toString('hex');

describe.skipIf(postgresSkipReason)('routes ARK 3.x consumers call', () => {
  let node: LedgerNode;
  let client: Connection;
  let sender: { passphrase: string; address: string; publicKey: string };
  let other: { passphrase: string; address: string; publicKey: string };
  // A claimed, B open and expired, C open with a vendor field, D refunded.
  const locks: Record<'A' | 'B' | 'C' | 'D', TransactionData> = {} as never;
  let claim: TransactionData;
  let refund: TransactionData;
  let lockBlock: { height: number; timestamp: number };

  // Response bodies are inspected field by field; their shape is what the assertions check.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Answer = { status: number; body: any };
  const request = async (path: string, init?: RequestInit): Promise<Answer> => {
    const response = await fetch(`${node.api}${path}`, init);
    return { status: response.status, body: await response.json() };
  };
  const get = (path: string) => request(path);
  const post = (path: string, body: unknown) =>
    request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const nonceOf = async (address: string) =>
    BigInt((await get(`/wallets/${address}`)).body.data.nonce as string);

  beforeAll(async () => {
    node = await startLedgerNode();
    client = new Connection(node.api).withOptions({ timeout: 20_000 });
    const secrets = await delegateSecrets(TESTNET);
    const wallet = (passphrase: string) => ({
      passphrase,
      address: addressFromPassphrase(passphrase, pubKeyHash),
      publicKey: keysFromPassphrase(passphrase).publicKey.toString('hex'),
    });
    sender = wallet(secrets[0] as string);
    other = wallet(secrets[1] as string);
    const options = { network: pubKeyHash, milestone: node.milestones.at(2) };
    const senderNonce = await nonceOf(sender.address);
    const otherNonce = await nonceOf(other.address);
    const secretA = secret();
    const lock = (
      from: typeof sender,
      nonce: bigint,
      amount: number,
      expiration: { type: 1 | 2; value: number },
      vendorField = '',
    ) =>
      htlcLock(options)
        .recipientId(recipient)
        .amount(amount)
        .htlcLockAsset({ secretHash: hashOf(secret()), expiration })
        .vendorField(vendorField)
        .nonce(nonce)
        .sign(from.passphrase)
        .build();
    locks.A = htlcLock(options)
      .recipientId(recipient)
      .amount(1_000)
      .htlcLockAsset({ secretHash: hashOf(secretA), expiration: { type: 2, value: 1_000 } })
      .nonce(senderNonce + 1n)
      .sign(sender.passphrase)
      .build();
    locks.B = lock(sender, senderNonce + 2n, 2_000, { type: 2, value: 3 });
    locks.C = lock(other, otherNonce + 1n, 3_000, { type: 1, value: 2 ** 32 - 1 }, 'swap');
    locks.D = lock(sender, senderNonce + 3n, 4_000, { type: 2, value: 3 });
    lockBlock = await node.forge(Object.values(locks));
    claim = htlcClaim(options)
      .htlcClaimAsset({ lockTransactionId: locks.A.id as string, unlockSecret: secretA })
      .fee(1)
      .nonce(otherNonce + 2n)
      .sign(other.passphrase)
      .build();
    await node.forge([claim]);
    refund = htlcRefund(options)
      .htlcRefundAsset({ lockTransactionId: locks.D.id as string })
      .fee(1)
      .nonce(senderNonce + 4n)
      .sign(sender.passphrase)
      .build();
    await node.forge([refund]);
  }, 60_000);
  afterAll(() => node?.stop());

  describe('GET /api/locks', () => {
    it('lists the open locks in ARK 3.0’s lock shape, newest first', async () => {
      const { status, body } = await get('/locks');
      expect(status).toBe(200);
      expect(body.meta).toMatchObject({ totalCount: 2, count: 2, pageCount: 1 });
      const byId = Object.fromEntries(
        body.data.map((lock: { lockId: string }) => [lock.lockId, lock]),
      );
      const epochStart = Date.parse(node.milestones.at(1).epoch);
      expect(byId[locks.C.id as string]).toEqual({
        lockId: locks.C.id,
        senderPublicKey: other.publicKey,
        isExpired: false,
        amount: '3000',
        secretHash: locks.C.asset?.lock?.secretHash,
        recipientId: recipient,
        timestamp: {
          epoch: lockBlock.timestamp,
          unix: epochStart / 1000 + lockBlock.timestamp,
          human: new Date(epochStart + lockBlock.timestamp * 1000).toISOString(),
        },
        expirationType: 1,
        expirationValue: 2 ** 32 - 1,
        vendorField: 'swap',
      });
      // Expired at height 3: the chain is at 4, and only a refund can close it now.
      expect(byId[locks.B.id as string]).toMatchObject({ isExpired: true, amount: '2000' });
      expect(byId[locks.B.id as string]).not.toHaveProperty('vendorField');
    });

    it('filters and orders by any field of the lock, AND across fields', async () => {
      const ids = async (query: string) =>
        (await get(`/locks?${query}`)).body.data.map((lock: { lockId: string }) => lock.lockId);
      expect(await ids('isExpired=true')).toEqual([locks.B.id]);
      expect(await ids(`senderPublicKey=${other.publicKey}`)).toEqual([locks.C.id]);
      expect(await ids('amount.from=2500')).toEqual([locks.C.id]);
      expect(await ids('orderBy=amount:desc')).toEqual([locks.C.id, locks.B.id]);
      expect(await ids('orderBy=amount:asc&limit=1&page=2')).toEqual([locks.C.id]);
      expect(await ids(`recipientId=${recipient}&expirationType=2`)).toEqual([locks.B.id]);
      expect(await ids(`lockId=${locks.A.id},${locks.D.id}`)).toEqual([]);
      const bad = await get('/locks?amount=lots');
      expect(bad.status).toBe(422);
      expect(bad.body.message).toBe(`"amount" must be a non-negative integer, not 'lots'`);
    });

    it('walks the locks by the cursor meta.next carries, and refuses one of another order', async () => {
      const walked: string[] = [];
      let path: string | null = '/api/locks?orderBy=amount:desc&limit=1';
      while (path !== null) {
        const { status, body } = await get(path.replace(/^\/api/, ''));
        expect(status).toBe(200);
        walked.push(...body.data.map((lock: { lockId: string }) => lock.lockId));
        path = body.meta.next as string | null;
        if (path !== null) expect(path).toMatch(/[?&]cursor=[\w-]+/);
      }
      expect(walked).toEqual([locks.C.id, locks.B.id]);
      const first = await get('/locks?orderBy=amount:desc&limit=1');
      const cursor = new URL(first.body.meta.next as string, 'http://node').searchParams.get(
        'cursor',
      );
      const foreign = await get(`/locks?orderBy=isExpired:asc,amount:asc&cursor=${cursor}`);
      expect(foreign.status).toBe(422);
      expect(foreign.body.message).toMatch(/^"cursor" does not belong to this order/);
    });

    it('finds one open lock by id; a closed or unknown one is 404', async () => {
      expect((await get(`/locks/${locks.C.id}`)).body.data.vendorField).toBe('swap');
      for (const closed of [locks.A.id, locks.D.id, '0'.repeat(64)]) {
        const { status, body } = await get(`/locks/${closed}`);
        expect(status).toBe(404);
        expect(body.message).toBe(`lock ${closed} not found`);
      }
      const bad = await get('/locks/not-an-id');
      expect(bad.status).toBe(422);
      expect(bad.body.message).toContain('"id"');
    });

    it('lists the locks a wallet sent, by address, public key or username', async () => {
      const ids = async (id: string, query = '') =>
        (await get(`/wallets/${id}/locks${query}`)).body.data.map(
          (lock: { lockId: string }) => lock.lockId,
        );
      expect(await ids(sender.address)).toEqual([locks.B.id]);
      expect(await ids(other.publicKey)).toEqual([locks.C.id]);
      expect(await ids(other.address, '?isExpired=true')).toEqual([]);
      expect((await get(`/wallets/${recipient}/locks`)).body.meta.totalCount).toBe(0);
      expect((await get('/wallets/Anobody/locks')).status).toBe(404);
    });
  });

  describe('POST /api/locks/unlocked', () => {
    it('answers the claims and refunds that closed the given locks', async () => {
      const { status, body } = await post('/locks/unlocked', {
        ids: [locks.A.id, locks.B.id, locks.D.id],
      });
      expect(status).toBe(200);
      expect(body.meta.totalCount).toBe(2);
      const byType = Object.fromEntries(
        body.data.map((tx: { type: number; id: string }) => [tx.type, tx]),
      );
      expect(byType[9]).toMatchObject({
        id: claim.id,
        sender: other.address,
        asset: { claim: { lockTransactionId: locks.A.id } },
      });
      expect(byType[10]).toMatchObject({ id: refund.id, sender: sender.address });
      const ordered = await post('/locks/unlocked?orderBy=type:desc&limit=1', {
        ids: [locks.A.id, locks.D.id],
      });
      expect(ordered.body.data.map((tx: { id: string }) => tx.id)).toEqual([refund.id]);
    });

    it('refuses a body without ids, naming the field', async () => {
      for (const body of [{}, { ids: [] }, { ids: ['nope'] }]) {
        const { status, body: answer } = await post('/locks/unlocked', body);
        expect(status).toBe(422);
        expect(answer.message).toContain('"ids');
      }
    });
  });

  it('GET /api/blockchain answers the last block and the supply', async () => {
    const { body } = await get('/blockchain');
    const last = node.kernel.cradle.blockProcessor.lastBlock;
    // testnet forges no reward before height 75,600: the supply is the genesis amount.
    expect(body).toEqual({
      data: {
        block: { height: last?.height, id: last?.id },
        supply: String(network.genesisBlock.totalAmount),
      },
    });
  });

  it('GET /api and GET / greet as ARK 3.0 does', async () => {
    expect((await get('')).body).toEqual({ data: 'Hello World!' });
    const root = await fetch(new URL('/', node.api));
    expect(await root.json()).toEqual({ data: 'Hello World!' });
  });

  it('GET /api/transactions/schemas answers each accepted type’s JSON schema properties', async () => {
    const { status, body } = await get('/transactions/schemas');
    expect(status).toBe(200);
    const core = body.data[1];
    expect(Object.keys(core).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 11 }, (_, type) => String(type)),
    );
    // Amounts travel as decimal strings; what a type forbids (version 1's timestamp) is not
    // among its fields.
    expect(core[0].amount).toMatchObject({ type: 'string', pattern: '^[0-9]+$' });
    expect(core[0].recipientId).toMatchObject({ type: 'string' });
    expect(core[0].version).toEqual({ const: 2 });
    expect(core[0]).not.toHaveProperty('timestamp');
    expect(core[8].asset.properties.lock.properties.expiration.properties.type.enum).toEqual([
      1, 2,
    ]);
    expect(core[9].asset.required).toEqual(['claim']);
    // No longer taken as a transaction id.
    expect((await get('/transactions/schemas?x=1')).status).toBe(200);
  });

  it('answers the removed POST /search routes with 404 saying what to use', async () => {
    for (const resource of ['wallets', 'delegates', 'transactions', 'blocks', 'votes', 'locks']) {
      const { status, body } = await post(`/${resource}/search`, { username: 'x' });
      expect(status).toBe(404);
      expect(body.message).toBe(
        `POST /api/${resource}/search was removed in 3.0: use GET /api/${resource} with ` +
          'query parameters (any field as a filter, orderBy, page, limit)',
      );
    }
  });

  it('works with @arkecosystem/client 3.x', async () => {
    const all = await client.api('locks').all({ orderBy: 'amount:desc' });
    expect(all.body.data.map((lock) => lock.lockId)).toEqual([locks.C.id, locks.B.id]);
    expect((await client.api('locks').get(locks.B.id as string)).body.data.isExpired).toBe(true);
    const unlocked = await client.api('locks').unlocked({ ids: [locks.A.id as string] });
    expect(unlocked.body.data.map((tx) => tx.id)).toEqual([claim.id]);
    const mine = await client.api('wallets').locks(other.address);
    expect(mine.body.data.map((lock) => lock.lockId)).toEqual([locks.C.id]);
    const schemas = (await client.api('transactions').schemas()).body.data as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(schemas[1] ?? {})).toHaveLength(11);
  });

  it('documents the new routes in the OpenAPI document, and caches those that read the chain', async () => {
    const { body } = await get('/openapi.json');
    for (const path of [
      '/api',
      '/api/blockchain',
      '/api/locks',
      '/api/locks/{id}',
      '/api/wallets/{id}/locks',
      '/api/transactions/schemas',
    ]) {
      expect(body.paths[path]?.get, path).toBeDefined();
    }
    const unlocked = body.paths['/api/locks/unlocked'].post;
    expect(unlocked.requestBody.content['application/json'].schema.properties.ids).toBeDefined();
    const lockParameters = body.paths['/api/locks'].get.parameters.map(
      (parameter: { name: string }) => parameter.name,
    );
    expect(lockParameters).toEqual(
      expect.arrayContaining(['orderBy', 'lockId', 'isExpired', 'amount.from', 'timestamp.unix']),
    );
    const cached = node.kernel.cradle.apiServer.server
      .table()
      .filter((route) => (route.settings.app as { cachedPerBlock?: boolean }).cachedPerBlock)
      .map((route) => route.path);
    expect(cached).toEqual(
      expect.arrayContaining([
        '/api/blockchain',
        '/api/locks',
        '/api/locks/{id}',
        '/api/wallets/{id}/locks',
        '/api/transactions/schemas',
      ]),
    );
    // A new block changes what they answer.
    const before = (await get('/blockchain')).body.data.block.height as number;
    await node.forge([]);
    expect((await get('/blockchain')).body.data.block.height).toBe(before + 1);
  });

  it('answers 422 naming the parameter to names of Object.prototype on every index route', async () => {
    const routes = [
      '/wallets',
      '/wallets/top',
      `/wallets/${sender.address}/transactions`,
      `/wallets/${sender.address}/transactions/sent`,
      `/wallets/${sender.address}/transactions/received`,
      `/wallets/${sender.address}/votes`,
      `/wallets/${sender.address}/locks`,
      '/delegates',
      `/delegates/${sender.publicKey}/voters`,
      `/delegates/${sender.publicKey}/blocks`,
      '/transactions',
      '/blocks',
      '/blocks/1/transactions',
      '/votes',
      '/locks',
    ];
    const queries: readonly [string, string][] = [
      ['orderBy=__proto__', `"orderBy" cannot order by '__proto__'`],
      ['orderBy=constructor:desc', `"orderBy" cannot order by 'constructor'`],
      ['orderBy=toString:asc', `"orderBy" cannot order by 'toString'`],
      ['orderBy=prototype', `"orderBy" cannot order by 'prototype'`],
      ['__proto__=1', '"__proto__" is not a field of this resource'],
      ['constructor=1', '"constructor" is not a field of this resource'],
      ['constructor.prototype.polluted=1', '"constructor.prototype.polluted" is not a field'],
      ['timestamp.__proto__.x=1', '"timestamp.__proto__.x" is not a field'],
    ];
    for (const route of routes) {
      for (const [query, message] of queries) {
        const { status, body } = await get(`${route}?${query}`);
        expect(status, `${route}?${query}`).toBe(422);
        expect(body.message, `${route}?${query}`).toContain(message);
      }
    }
    const unlocked = await post('/locks/unlocked?orderBy=__proto__', { ids: [locks.A.id] });
    expect(unlocked.status).toBe(422);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a transaction id named __proto__ as a key of the errors it answers', async () => {
    const { status, body } = await post('/transactions', {
      transactions: [{ id: '__proto__', type: 0 }],
    });
    expect(status).toBe(422);
    expect(body.data.invalid).toEqual(['__proto__']);
    expect(Object.keys(body.errors)).toEqual(['__proto__']);
    expect(body.errors.__proto__.type).toBe('ERR_BAD_DATA');
  });
});
