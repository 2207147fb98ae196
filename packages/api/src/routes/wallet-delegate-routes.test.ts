import { WalletQueryEngine, WalletRepository } from '@lni/state';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPlugin } from '../plugin.js';
import type { LedgerReader } from '@lni/state/contracts';
import { resourceJson } from '../resources/json-bytes.js';
import { delegateRoutes } from './delegates.js';
import { walletRoutes } from './wallets.js';

// Real wallet indexes of @lni/state behind the API's LedgerReader, as the state plugin wires them.
const wallets = new WalletRepository();
const engine = new WalletQueryEngine({ walletRepository: wallets });
let supply = 10_000_000n;
const epochStart = '2017-03-21T13:00:00.000Z';
const key = (n: number) => `02${n.toString(16).padStart(64, '0')}`;
const ledger: LedgerReader = {
  wallets: (search) => engine.wallets(search),
  delegates: (search) => engine.delegates(search),
  findWallet: (id) => wallets.find(id),
  supply: () => supply,
  // The tests change wallets in place between requests: no tip, so nothing is cached.
  tip: () => undefined,
  lastBlock: () => ({ id: 'b10', height: 10, timestamp: 80 }),
  chainContext: () => ({
    height: 10,
    epochStart,
    addressOf: (publicKey) => `A${publicKey.slice(-6)}`,
  }),
};

/** A delegate's last block: the whole header, as the ledger keeps it. */
const blockHeader = (id: string, height: number, timestamp: number) => ({
  id,
  idHex: id.padStart(16, '0'),
  version: 0,
  timestamp,
  height,
  previousBlock: `b${height - 1}`,
  previousBlockHex: `b${height - 1}`.padStart(16, '0'),
  numberOfTransactions: 0,
  totalAmount: 0n,
  totalFee: 0n,
  reward: 200_000_000n,
  payloadLength: 0,
  payloadHash: '00'.repeat(32),
  generatorPublicKey: key(1),
  blockSignature: '3044',
});

for (let n = 1; n <= 30; n += 1) {
  wallets.update(`Awallet${String(n).padStart(3, '0')}`, {
    publicKey: key(n),
    balance: BigInt(n) * 1_000n,
    nonce: BigInt(n % 3),
  });
}
// Five delegates; votes = 1000 * n; delegate 5 resigned; wallets 10..14 vote for delegate 1.
for (let n = 1; n <= 5; n += 1) {
  wallets.update(`Awallet${String(n).padStart(3, '0')}`, {
    attributes: {
      delegate: {
        username: `genesis_${n}`,
        voteBalance: BigInt(n) * 100_000n,
        forgedFees: 0n,
        forgedRewards: BigInt(n),
        producedBlocks: n - 1,
        ...(n === 5 ? { resigned: true } : { rank: 6 - n }),
        ...(n > 1 && { lastBlock: blockHeader(`b${n}`, n, n * 8) }),
      },
    },
  });
}
for (let n = 10; n <= 14; n += 1) {
  wallets.update(`Awallet0${n}`, { attributes: { vote: key(1) } });
}
// A wallet that only received: its public key is not known yet.
wallets.update('Areceiver', { balance: 7n });

const json = resourceJson();
const routes: Plugin<object> = {
  name: 'ledger-routes',
  dependsOn: { required: ['api'] },
  register: ({ container }) =>
    container.cradle.apiRoutes.add(
      ...walletRoutes(() => ledger, json.wallets),
      ...delegateRoutes(() => ledger, json),
    ),
};

let kernel: TestKernel;
let uri: string;
beforeAll(async () => {
  kernel = await startTestKernel({
    plugins: [
      { plugin: routes },
      {
        plugin: apiPlugin as Plugin<object>,
        options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
      },
    ],
  });
  uri = kernel.cradle.apiServer.server.info.uri;
});
afterAll(() => kernel.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${uri}${path}`);
  return { status: response.status, body: await response.json() };
}

describe('GET /api/delegates', () => {
  it('filters by isResigned and orders by rank by default', async () => {
    const { body } = await get('/api/delegates?isResigned=false');
    expect(body.data.map((d: { username: string }) => d.username)).toEqual([
      'genesis_4',
      'genesis_3',
      'genesis_2',
      'genesis_1',
    ]);
    expect(body.meta.totalCount).toBe(4);
  });

  it('combines a comma list (OR) with another field (AND) and orders by any field', async () => {
    const { body } = await get(
      '/api/delegates?username=genesis_1,genesis_2,genesis_5&isResigned=false&orderBy=votes:desc',
    );
    expect(body.data.map((d: { username: string }) => d.username)).toEqual([
      'genesis_2',
      'genesis_1',
    ]);
  });

  it('filters by a nested field and by approval, which derives from votes and supply', async () => {
    const produced = await get('/api/delegates?blocks.produced=2');
    expect(produced.body.data.map((d: { username: string }) => d.username)).toEqual(['genesis_3']);
    // genesis_3 has 300,000 of 10,000,000 votes: approval 3.
    const approval = await get('/api/delegates?production.approval=3');
    expect(approval.body.data).toHaveLength(1);
    expect(approval.body.data[0]).toMatchObject({
      username: 'genesis_3',
      production: { approval: 3 },
    });
    const range = await get(
      '/api/delegates?production.approval.from=2.5&orderBy=production.approval:asc',
    );
    expect(range.body.data.map((d: { username: string }) => d.username)).toEqual([
      'genesis_3',
      'genesis_4',
      'genesis_5',
    ]);
  });

  it('filters by the human time of the last block', async () => {
    const { body } = await get(
      '/api/delegates?blocks.last.timestamp.human=2017-03-21T13:00:32.000Z',
    );
    expect(body.data.map((d: { username: string }) => d.username)).toEqual(['genesis_4']);
    expect(body.data[0].blocks.last.timestamp).toEqual({
      epoch: 32,
      unix: 1490101232,
      human: '2017-03-21T13:00:32.000Z',
    });
  });

  it('answers 422 naming the field for a bad value or an unknown field, never 500', async () => {
    const bad = await get('/api/delegates?rank=first');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('"rank" must be an integer');
    const unknown = await get('/api/delegates?isDelegate=true');
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toContain('"isDelegate" is not a field of this resource');
    const human = await get('/api/delegates?blocks.last.timestamp.human=yesterday');
    expect(human.status).toBe(422);
    expect(human.body.message).toContain('blocks.last.timestamp.human');
  });

  it('finds one delegate by username, address or public key, and its voters', async () => {
    for (const id of ['genesis_1', 'Awallet001', key(1)]) {
      const { status, body } = await get(`/api/delegates/${id}`);
      expect(status).toBe(200);
      expect(body.data.username).toBe('genesis_1');
    }
    expect((await get('/api/delegates/Awallet020')).status).toBe(404);
    const voters = await get('/api/delegates/genesis_1/voters?orderBy=balance:asc&limit=2');
    expect(voters.body.meta.totalCount).toBe(5);
    expect(voters.body.data.map((w: { address: string }) => w.address)).toEqual([
      'Awallet010',
      'Awallet011',
    ]);
  });
});

describe('GET /api/wallets', () => {
  it('says what replaces the 2.x "addresses" parameter, and that replacement works', async () => {
    const removed = await get('/api/wallets?addresses=Awallet001,Awallet002');
    expect(removed.status).toBe(422);
    expect(removed.body.message).toBe(
      '"addresses" was removed in 3.0: use "address" with comma-separated values',
    );
    const listed = await get('/api/wallets?address=Awallet001,Awallet002&orderBy=address:asc');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((w: { address: string }) => w.address)).toEqual([
      'Awallet001',
      'Awallet002',
    ]);
  });

  it('filters by the full attribute path and has no isDelegate', async () => {
    const { body } = await get('/api/wallets?attributes.delegate.username=genesis_2');
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).not.toHaveProperty('isDelegate');
    expect(body.data[0].attributes.delegate).toMatchObject({
      username: 'genesis_2',
      voteBalance: '200000',
    });
  });

  it('pages with exact counts and balance ranges', async () => {
    const { body } = await get(
      '/api/wallets?balance.from=5000&balance.to=20000&orderBy=balance:asc&limit=4&page=2',
    );
    expect(body.meta).toMatchObject({ totalCount: 16, count: 4, pageCount: 4 });
    expect(body.data.map((w: { balance: string }) => w.balance)).toEqual([
      '9000',
      '10000',
      '11000',
      '12000',
    ]);
  });

  it('walks any order by the cursor meta.next carries, ties included, as pages would', async () => {
    const walk = async (first: string) => {
      const seen: string[] = [];
      for (let next: string | null = first; next !== null;) {
        const page = await get(next);
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((w: { address: string }) => w.address));
        next = page.body.meta.next as string | null;
        if (next !== null) expect(next).toMatch(/[?&]cursor=[\w-]+/);
      }
      return seen;
    };
    // nonce takes three values over 30 wallets: pages end inside runs of equal nonces.
    for (const order of ['nonce:desc,balance:asc', 'balance:desc', 'nonce:asc']) {
      const whole = await get(`/api/wallets?orderBy=${order}&limit=100`);
      const addresses = whole.body.data.map((w: { address: string }) => w.address);
      expect(await walk(`/api/wallets?orderBy=${order}&limit=4`), order).toEqual(addresses);
      expect(await walk(`/api/wallets?orderBy=${order}&nonce=1,2&limit=3`), order).toEqual(
        (await get(`/api/wallets?orderBy=${order}&nonce=1,2`)).body.data.map(
          (w: { address: string }) => w.address,
        ),
      );
    }
    const delegates = await get('/api/delegates?orderBy=votes:desc');
    expect(await walk('/api/delegates?orderBy=votes:desc&limit=2')).toEqual(
      delegates.body.data.map((d: { address: string }) => d.address),
    );
    // A cursor of another order is refused, naming it.
    const first = await get('/api/wallets?orderBy=balance:desc&limit=4');
    const cursor = new URL(first.body.meta.next as string, uri).searchParams.get('cursor');
    const foreign = await get(`/api/wallets?orderBy=nonce:asc,balance:asc&cursor=${cursor}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toMatch(/cursor/);
  });

  it('omits the public key of a wallet that has not signed yet, as ARK 3 does', async () => {
    const receiver = await get('/api/wallets/Areceiver');
    expect(receiver.status).toBe(200);
    expect(receiver.body.data).toEqual({
      address: 'Areceiver',
      balance: '7',
      nonce: '0',
      attributes: {},
    });
    // Filters and ordering on publicKey still work; keyless wallets sort last ascending.
    const byKey = await get(`/api/wallets?publicKey=${key(3)}`);
    expect(byKey.body.data.map((w: { address: string }) => w.address)).toEqual(['Awallet003']);
    const ordered = await get('/api/wallets?orderBy=publicKey:asc&limit=100');
    expect(ordered.body.data.at(-1)).toEqual(receiver.body.data);
    expect(ordered.body.data.at(-2).publicKey).toBe(key(30));
  });

  it('gives the richest wallets first on /wallets/top and one wallet by any of its ids', async () => {
    const top = await get('/api/wallets/top?limit=2');
    expect(top.body.data.map((w: { balance: string }) => w.balance)).toEqual(['30000', '29000']);
    expect((await get('/api/wallets/genesis_3')).body.data.address).toBe('Awallet003');
    expect((await get('/api/wallets/Anobody')).status).toBe(404);
  });
});

describe('answers kept as JSON between changes', () => {
  it('show a wallet as it is now, in every route, once it changes', async () => {
    const routes = ['/api/wallets/Awallet012', '/api/delegates/genesis_1/voters'];
    const before = await get('/api/delegates/genesis_1/voters?address=Awallet012');
    expect(before.body.data).toEqual([expect.objectContaining({ balance: '12000' })]);
    expect((await get(routes[0]!)).body.data.balance).toBe('12000');
    wallets.update('Awallet012', { balance: 12_001n });
    expect((await get(routes[0]!)).body.data.balance).toBe('12001');
    const after = await get('/api/delegates/genesis_1/voters?address=Awallet012');
    expect(after.body.data).toEqual([expect.objectContaining({ balance: '12001' })]);
    expect((await get('/api/wallets?address=Awallet012')).body.data[0].balance).toBe('12001');
  });

  it("show a delegate's approval at the supply of now", async () => {
    const approval = async () =>
      (await get('/api/delegates?username=genesis_3')).body.data[0].production.approval;
    expect(await approval()).toBe(3);
    expect((await get('/api/delegates/genesis_3')).body.data.production.approval).toBe(3);
    supply = 20_000_000n;
    try {
      expect(await approval()).toBe(1.5);
      expect((await get('/api/delegates/genesis_3')).body.data.production.approval).toBe(1.5);
    } finally {
      supply = 10_000_000n;
    }
  });
});

describe('names of Object.prototype in a query', () => {
  const routes = [
    '/api/delegates',
    '/api/wallets',
    '/api/wallets/top',
    '/api/delegates/genesis_1/voters',
  ];
  const queries: readonly [string, string][] = [
    ['orderBy=__proto__,forged.rewards:asc', '"orderBy" cannot order by \'__proto__\''],
    ['orderBy=address:asc,constructor:desc', '"orderBy" cannot order by \'constructor\''],
    ['orderBy=toString', '"orderBy" cannot order by \'toString\''],
    ['orderBy=attributes.__proto__:asc', '"orderBy" cannot order by \'attributes.__proto__\''],
    ['constructor=x', '"constructor" is not a field of this resource'],
    ['prototype=1', '"prototype" is not a field of this resource'],
    ['__proto__.polluted=1', '"__proto__.polluted" is not a field of this resource'],
    ['attributes.constructor.prototype=1', '"attributes.constructor.prototype" is not a field'],
  ];
  it.each(routes)('answer 422 naming the parameter on %s, never 500', async (route) => {
    for (const [query, message] of queries) {
      const { status, body } = await get(`${route}?${query}`);
      expect(status, `${route}?${query}`).toBe(422);
      expect(body.message).toContain(message);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
