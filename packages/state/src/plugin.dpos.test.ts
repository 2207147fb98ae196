import apiPlugin from '@lni/api';
import {
  addressFromPassphrase,
  delegateRegistration,
  delegateResignation,
  forgeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  vote,
  type KeyPair,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FullBlock } from './blocks/block-store.js';
import type { RoundKeeper } from './rounds/round-keeper.js';
import { statePlugin } from './plugin.js';

const skip = process.env.LNI_TEST_POSTGRES === 'unavailable';
const PUB_KEY_HASH = 23;
const TOKEN = 100_000_000n;
const secret = (n: number) => `dpos over http secret ${n}`;
const ALICE = 'dpos over http alice';
const CAROL = 'dpos over http carol';

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// 7 delegates, 5 active: rounds of 5 blocks (round 1 = heights 1-5, round 2 = 6-10, ...).
let counter = 0;
const generated = generateNetwork({
  name: 'dposhttp',
  delegates: 7,
  activeDelegates: 5,
  pubKeyHash: PUB_KEY_HASH,
  rewardHeight: 2,
  balances: [
    ...Array.from({ length: 7 }, (_, i) => ({
      address: addressFromPassphrase(secret(i + 1), PUB_KEY_HASH),
      amount: BigInt(100 + i) * TOKEN,
    })),
    { address: addressFromPassphrase(ALICE, PUB_KEY_HASH), amount: 10_000n * TOKEN },
    { address: addressFromPassphrase(CAROL, PUB_KEY_HASH), amount: 1_000n * TOKEN },
  ],
  createSecret: () => secret(counter++),
});
const milestones = new Milestones(generated.milestones);
const keys = new Map<string, KeyPair>(
  Array.from({ length: 8 }, (_, n) => {
    const pair = keysFromPassphrase(secret(n));
    return [pair.publicKey.toString('hex'), pair];
  }),
);
const publicKeyOf = (n: number) => keysFromPassphrase(secret(n)).publicKey.toString('hex');
const options = { network: PUB_KEY_HASH, milestone: milestones.at(2) };

interface ApiDelegate {
  username: string;
  publicKey: string;
  votes: string;
  rank: number;
  isResigned: boolean;
}

describe.skipIf(skip)('delegate ranks, rounds and delegate attributes over HTTP', () => {
  const name = `lni_test_${randomBytes(6).toString('hex')}`;
  let root: string;
  let kernel: TestKernel;
  const forged: FullBlock[] = [];
  /** What the ledger announced on the event bus, as `name detail`. */
  const announced: string[] = [];
  const start = (stateOptions: object = {}) =>
    startTestKernel({
      plugins: [
        {
          plugin: databasePlugin as Plugin<object>,
          options: { connection: { host: '127.0.0.1', username: 'postgres', database: name } },
        },
        {
          plugin: statePlugin as Plugin<object>,
          options: { verificationWorkers: 0, ...stateOptions },
        },
        {
          plugin: apiPlugin as Plugin<object>,
          options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
        },
      ],
      paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
    });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${kernel.cradle.apiServer.server.info.uri}/api${path}`);
    return { status: response.status, body: await response.json() };
  };
  const delegates = async (query: string): Promise<ApiDelegate[]> =>
    (await get(`/delegates?limit=100&${query}`)).body.data as ApiDelegate[];

  /** Forges the next block in the next slot, by the delegate the round keeper expects. */
  async function forge(transactions: TransactionData[] = []): Promise<FullBlock> {
    const last = kernel.cradle.blockProcessor.lastBlock as FullBlock;
    const timestamp = last.timestamp + 8;
    const roundKeeper = kernel.app.container.resolve<RoundKeeper>('roundKeeper');
    const generator = roundKeeper.forgerAt(last.height + 1, timestamp);
    const block = forgeBlock({
      transactions,
      previousBlock: last,
      timestamp,
      keys: keys.get(generator) as KeyPair,
      milestones,
    });
    await kernel.cradle.blockProcessor.process(block);
    forged.push(block);
    return block;
  }

  /**
   * Ranks are 1..n and every delegate has one: the active delegates 1..m by votes (ties by
   * public key), as ARK ranks them, then the resigned ones by votes.
   */
  async function expectRanksFollowVotes(): Promise<ApiDelegate[]> {
    const byRank = await delegates('orderBy=rank:asc');
    expect(byRank.map((d) => d.rank)).toEqual(byRank.map((_, i) => i + 1));
    const byVotes = [...(await delegates('orderBy=votes:desc'))].sort(
      (a, b) =>
        Number(a.isResigned) - Number(b.isResigned) ||
        Number(BigInt(b.votes) - BigInt(a.votes)) ||
        (a.publicKey < b.publicKey ? -1 : a.publicKey > b.publicKey ? 1 : 0),
    );
    expect(byRank.map((d) => d.username)).toEqual(byVotes.map((d) => d.username));
    return byRank;
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-dpos-'));
    const crypto = join(root, 'config', 'crypto');
    await mkdir(crypto, { recursive: true });
    await writeFile(join(crypto, 'network.json'), JSON.stringify(generated.network));
    await writeFile(join(crypto, 'milestones.json'), JSON.stringify(generated.milestones));
    await writeFile(join(crypto, 'genesisBlock.json'), JSON.stringify(generated.genesisBlock));
    await adminQuery(`CREATE DATABASE ${name}`);
    kernel = await start();
    const { events } = kernel.app;
    events.on('round.applied', ({ round, height, delegates }) => {
      announced.push(`round ${round} at ${height}: ${[...delegates].sort().join(',')}`);
    });
    events.on('delegate.registered', ({ username, publicKey, block }) => {
      announced.push(`registered ${username} ${publicKey} at ${block.height}`);
    });
    events.on('delegate.resigned', ({ username, block }) => {
      announced.push(`resigned ${username} at ${block.height}`);
    });
  }, 60_000);
  afterAll(async () => {
    await kernel?.stop();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await rm(root, { recursive: true, force: true });
  });

  it('stores round 1 at genesis and ranks every delegate', async () => {
    const round = await get('/rounds/1/delegates');
    expect(round.status).toBe(200);
    // The 5 richest of 7 self-voting delegates: delegates 3 to 7.
    expect(round.body.data.map((d: { publicKey: string }) => d.publicKey).sort()).toEqual(
      [3, 4, 5, 6, 7].map(publicKeyOf).sort(),
    );
    expect((await expectRanksFollowVotes()).map((d) => d.publicKey)).toEqual(
      [7, 6, 5, 4, 3, 2, 1].map(publicKeyOf),
    );
  });

  it('moves ranks with a vote cast mid-round, a new registration and a resignation', async () => {
    await forge();
    // Height 3, mid-round 1: Alice's 10,000 tokens lift delegate 1 from last to first.
    await forge([
      vote(options).vote(publicKeyOf(1)).nonce(1).sign(keysFromPassphrase(ALICE)).build(),
    ]);
    let ranked = await expectRanksFollowVotes();
    expect(ranked[0]?.publicKey).toBe(publicKeyOf(1));
    expect(ranked.at(-1)?.publicKey).toBe(publicKeyOf(2));

    // Carol registers: ranked at once, last, with no votes.
    await forge([
      delegateRegistration(options)
        .username('carol')
        .nonce(1)
        .sign(keysFromPassphrase(CAROL))
        .build(),
    ]);
    ranked = await expectRanksFollowVotes();
    expect(ranked.at(-1)).toMatchObject({ username: 'carol', rank: 8, votes: '0' });

    // Delegate 7 resigns at height 5, the last of round 1: it keeps a rank, and round 2 leaves it out.
    await forge([
      delegateResignation(options)
        .nonce(3)
        .sign(keys.get(publicKeyOf(7))!)
        .build(),
    ]);
    ranked = await expectRanksFollowVotes();
    // Its 106 tokens less the 25-token resignation fee would rank it 6th of the 8; resigned, it
    // comes after the 7 active delegates, carol's 0 votes included.
    expect(ranked.find((d) => d.publicKey === publicKeyOf(7))).toMatchObject({
      isResigned: true,
      votes: String(81n * TOKEN),
      rank: 8,
    });
    const round2 = (await get('/rounds/2/delegates')).body.data as { publicKey: string }[];
    expect(round2.map((d) => d.publicKey).sort()).toEqual([1, 3, 4, 5, 6].map(publicKeyOf).sort());
    // Round 2's delegates are the active delegates ranked 1..5 when it was elected.
    expect(
      ranked
        .slice(0, 5)
        .map((d) => d.publicKey)
        .sort(),
    ).toEqual(round2.map((d) => d.publicKey).sort());
    // The same told on the event bus: the registration, the resignation (by the username state
    // holds), and round 2 elected by height 5, the last block of round 1.
    const carol = keysFromPassphrase(CAROL).publicKey.toString('hex');
    const resigned = (await get(`/wallets/${publicKeyOf(7)}`)).body.data.attributes.delegate;
    expect(announced).toEqual([
      `registered carol ${carol} at 4`,
      `resigned ${resigned.username} at 5`,
      `round 2 at 5: ${[1, 3, 4, 5, 6].map(publicKeyOf).sort().join(',')}`,
    ]);
  });

  it('keeps rounds, ranks, delegate.round and the whole lastBlock as the chain crosses rounds', async () => {
    for (let height = 6; height <= 12; height++) await forge();
    expect((await get('/rounds/3/delegates')).status).toBe(200);
    expect((await get('/rounds/4/delegates')).status).toBe(404);
    await expectRanksFollowVotes();

    const last = forged.at(-1) as FullBlock;
    const generator = (await get(`/wallets/${last.generatorPublicKey}`)).body.data;
    expect(generator.attributes.delegate.round).toBe(3);
    expect(generator.attributes.delegate.lastBlock).toEqual({
      id: last.id,
      idHex: last.id.length === 64 ? last.id : BigInt(last.id).toString(16).padStart(16, '0'),
      version: last.version,
      timestamp: last.timestamp,
      height: last.height,
      previousBlock: last.previousBlock,
      previousBlockHex:
        last.previousBlock!.length === 64
          ? last.previousBlock
          : BigInt(last.previousBlock!).toString(16).padStart(16, '0'),
      numberOfTransactions: 0,
      totalAmount: '0',
      totalFee: '0',
      reward: last.reward.toString(),
      payloadLength: 0,
      payloadHash: last.payloadHash,
      generatorPublicKey: last.generatorPublicKey,
      blockSignature: last.blockSignature,
    });
    // As ARK's setDelegatesRound: every delegate elected for round 3 carries it.
    for (const { publicKey } of (await get('/rounds/3/delegates')).body.data as {
      publicKey: string;
    }[]) {
      expect((await get(`/wallets/${publicKey}`)).body.data.attributes.delegate.round).toBe(3);
    }
    // Delegate 2 was never among the 5 elected: it has no round.
    const never = (await get(`/wallets/${publicKeyOf(2)}`)).body.data;
    expect(never.attributes.delegate).not.toHaveProperty('round');
  });

  // Both boot paths: the wallets table loaded (the default), and the chain replayed.
  it.each([
    { path: 'loaded', load: true, line: 'State loaded' },
    { path: 'rebuilt', load: false, line: 'State rebuilt' },
  ])(
    'answers the same after a restart ($path), rounds stored once, and fills rounds storage lacks',
    async ({ load, line }) => {
      const snapshot = async () => ({
        delegates: await delegates('orderBy=rank:asc'),
        wallets: (await get('/wallets?limit=100&orderBy=address:asc')).body.data,
        rounds: await Promise.all([1, 2, 3].map((n) => get(`/rounds/${n}/delegates`))),
      });
      const before = await snapshot();
      await kernel.stop();
      kernel = await start({ walletTable: { load } });
      expect(kernel.logs.some((record) => record.msg === line)).toBe(true);
      expect(await snapshot()).toEqual(before);

      // A chain stored before rounds were kept: the rebuild stores them.
      await kernel.stop();
      const client = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: name });
      await client.connect();
      await client.query('DELETE FROM rounds WHERE round IN (1, 3)');
      const rows = async () =>
        Number((await client.query('SELECT count(*) AS n FROM rounds')).rows[0].n);
      kernel = await start({ walletTable: { load } });
      // A table that lacks rounds is not loaded: the replay stores them.
      expect(kernel.logs.some((record) => record.msg === 'State rebuilt')).toBe(true);
      expect(await snapshot()).toEqual(before);
      expect(await rows()).toBe(15);
      await client.end();
    },
    120_000,
  );

  it('forgets the rounds of reverted blocks and puts delegate.round back', async () => {
    await kernel.cradle.blockProcessor.revertTo(7);
    expect((await get('/rounds/3/delegates')).status).toBe(404);
    expect((await get('/rounds/2/delegates')).status).toBe(200);
    const elected = (await get('/rounds/2/delegates')).body.data as { publicKey: string }[];
    for (const { publicKey } of elected) {
      const wallet = (await get(`/wallets/${publicKey}`)).body.data;
      expect(wallet.attributes.delegate.round).toBe(2);
    }
    // Delegate 7, resigned, was last elected for round 1.
    expect((await get(`/wallets/${publicKeyOf(7)}`)).body.data.attributes.delegate.round).toBe(1);
    await expectRanksFollowVotes();
    // The reverted blocks apply again and elect round 3 anew.
    for (const block of forged.slice(6)) await kernel.cradle.blockProcessor.process(block);
    expect((await get('/rounds/3/delegates')).status).toBe(200);
  });
});
