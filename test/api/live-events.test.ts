import { Connection } from '@arkecosystem/client';
import Nes from '@hapi/nes';
import {
  addressFromPassphrase,
  delegateRegistration,
  delegateResignation,
  keysFromPassphrase,
  multiPayment,
  transactionToJson,
  transfer,
  type TransactionData,
} from '@lni/crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import { startLedgerNode, TESTNET, type LedgerNode } from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

// Messages are compared field by field with what the REST routes answer.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const MAX_CONNECTIONS = 4;
const MAX_SUBSCRIPTIONS = 12;
const BACKLOG_KB = 256;

/** A nes client that records every message of the paths it subscribes to. */
class Recorder {
  readonly client: Nes.Client;
  readonly messages = new Map<string, Json[]>();

  constructor(url: `ws://${string}`) {
    this.client = new Nes.Client(url);
  }

  async subscribe(...paths: string[]): Promise<void> {
    for (const path of paths) {
      this.messages.set(path, []);
      await this.client.subscribe(path, (message) => {
        this.messages.get(path)?.push(message);
      });
    }
  }

  on(path: string): Json[] {
    return this.messages.get(path) ?? [];
  }

  /** Resolves with the messages of `path` once `count` have arrived. */
  received(path: string, count: number): Promise<Json[]> {
    return eventually(
      async () => (this.on(path).length >= count ? this.on(path) : undefined),
      10_000,
      `${count} messages on ${path}`,
    );
  }
}

describe.skipIf(postgresSkipReason)('live subscriptions over nes on the API port', () => {
  let node: LedgerNode;
  let ws: `ws://${string}`;
  let pubKeyHash: number;
  let secrets: string[];
  const milestone = () => node.milestones.at(2);
  const clients: Nes.Client[] = [];
  const connect = async (): Promise<Recorder> => {
    const recorder = new Recorder(ws);
    clients.push(recorder.client);
    await recorder.client.connect({ reconnect: false });
    return recorder;
  };

  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${node.api}${path}`);
    return { status: response.status, body: await response.json() };
  };
  const nonceOf = async (address: string) =>
    BigInt((await get(`/wallets/${address}`)).body.data.nonce as string);
  const addressOf = (passphrase: string) => addressFromPassphrase(passphrase, pubKeyHash);
  const without = (object: Json, ...keys: string[]) =>
    Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));

  beforeAll(async () => {
    node = await startLedgerNode([], {
      // Loopback is limited too here: the test's clients all come from 127.0.0.1.
      rateLimit: { enabled: true, points: 5_000, windowSeconds: 60, whitelist: [] },
      subscriptions: {
        maxConnectionsPerIp: MAX_CONNECTIONS,
        maxSubscriptionsPerConnection: MAX_SUBSCRIPTIONS,
        maxBacklogKilobytes: BACKLOG_KB,
        catchUpBlocks: 50,
      },
    });
    ws = node.api.replace(/^http/, 'ws').replace(/\/api$/, '') as `ws://${string}`;
    pubKeyHash = (node.kernel.cradle.networkConfig as { network: { pubKeyHash: number } }).network
      .pubKeyHash;
    secrets = await delegateSecrets(TESTNET);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.disconnect()));
    // The server counts a connection as gone once its close arrives.
    await sleep(100);
  });
  afterAll(() => node?.stop());

  it('pushes blocks, the pool, and an address its transactions (as a multipayment recipient) and wallet', async () => {
    const recipient = addressOf('live events multipayment recipient');
    const other = addressOf('live events other recipient');
    const sender = secrets[0] as string;
    const subscriber = await connect();
    await subscriber.subscribe(
      '/events/block.applied',
      '/events/transaction.applied',
      '/events/transaction.pool.added',
      '/events/transaction.pool.removed',
      `/wallets/${recipient}/transactions`,
      `/wallets/${recipient}`,
      `/wallets/${other}/transactions`,
    );
    const payment = multiPayment({ network: pubKeyHash, milestone: milestone() })
      .addPayment(other, 5)
      .addPayment(recipient, 700)
      .nonce((await nonceOf(addressOf(sender))) + 1n)
      .sign(sender)
      .build();
    // Through the API into the pool, then into a block the chain applies.
    const posted = await fetch(`${node.api}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [transactionToJson(payment)] }),
    });
    expect(posted.status).toBe(200);
    const [added] = await subscriber.received('/events/transaction.pool.added', 1);
    expect(added).toMatchObject({ id: payment.id, sender: addressOf(sender), type: 6 });
    const block = await node.forge([payment]);

    const [pushedBlock] = await subscriber.received('/events/block.applied', 1);
    const storedBlock = (await get(`/blocks/${block.id}`)).body.data;
    expect(without(pushedBlock, 'confirmations')).toEqual(without(storedBlock, 'confirmations'));
    expect(pushedBlock.confirmations).toBe(1);

    const [pushed] = await subscriber.received(`/wallets/${recipient}/transactions`, 1);
    const stored = (await get(`/transactions/${payment.id}`)).body.data;
    expect(without(pushed, 'confirmations')).toEqual(without(stored, 'confirmations'));
    expect((await subscriber.received('/events/transaction.applied', 1))[0].id).toBe(payment.id);
    expect((await subscriber.received(`/wallets/${other}/transactions`, 1))[0].id).toBe(payment.id);

    const [wallet] = await subscriber.received(`/wallets/${recipient}`, 1);
    expect(wallet).toEqual((await get(`/wallets/${recipient}`)).body.data);
    expect(wallet.balance).toBe('700');
    const [removed] = await subscriber.received('/events/transaction.pool.removed', 1);
    expect(removed).toMatchObject({ id: payment.id, reason: 'confirmed' });
  });

  it('announces registrations, resignations, rounds and missed slots with the delegate named', async () => {
    const passphrase = 'live events new delegate';
    const address = addressOf(passphrase);
    const publicKey = keysFromPassphrase(passphrase).publicKey.toString('hex');
    const subscriber = await connect();
    await subscriber.subscribe(
      '/events/delegate.registered',
      '/events/delegate.resigned',
      '/events/round.applied',
      '/events/forger.missing',
    );
    const funder = secrets[1] as string;
    const options = { network: pubKeyHash, milestone: milestone() };
    await node.forge([
      transfer(options)
        .recipientId(address)
        .amount(100 * 1e8)
        .nonce((await nonceOf(addressOf(funder))) + 1n)
        .sign(funder)
        .build(),
    ]);
    const registration = delegateRegistration(options)
      .username('livewire')
      .nonce(1)
      .sign(passphrase)
      .build();
    const registeredIn = await node.forge([registration]);
    const resignedIn = await node.forge([
      delegateResignation(options).nonce(2).sign(passphrase).build(),
    ]);
    const [registered] = await subscriber.received('/events/delegate.registered', 1);
    expect(registered).toMatchObject({
      username: 'livewire',
      publicKey,
      address,
      transaction: registration.id,
      block: { id: registeredIn.id, height: registeredIn.height },
    });
    const [resigned] = await subscriber.received('/events/delegate.resigned', 1);
    expect(resigned).toMatchObject({
      username: 'livewire',
      publicKey,
      block: { id: resignedIn.id },
    });

    // Blocks up to the last of the round: the next round's delegates are announced.
    const active = node.milestones.at(1).activeDelegates;
    while ((node.kernel.cradle.blockProcessor.lastBlock?.height ?? 0) % active !== 0) {
      await node.forge([]);
    }
    const last = node.kernel.cradle.blockProcessor.lastBlock!.height;
    const [round] = await subscriber.received('/events/round.applied', 1);
    expect(round).toMatchObject({ round: last / active + 1, height: last });
    expect(round.delegates).toHaveLength(active);
    const elected = (await get(`/rounds/${round.round}/delegates`)).body.data as Json[];
    expect(round.delegates.map((d: Json) => [d.publicKey, d.votes]).sort()).toEqual(
      elected.map((d) => [d.publicKey, d.votes]).sort(),
    );
    expect(round.delegates[0].username).toMatch(/^genesis_/);

    // The missed-slot tracker's event, as it emits it: the delegate named, the time shaped.
    const missing = round.delegates[0].publicKey as string;
    (node.kernel.app.events as unknown as { emit(name: string, payload: unknown): void }).emit(
      'forger.missing',
      { height: last + 1, round: round.round, slot: 1234, timestamp: 9_872, delegate: missing },
    );
    const [missed] = await subscriber.received('/events/forger.missing', 1);
    expect(missed).toMatchObject({
      height: last + 1,
      round: round.round,
      slot: 1234,
      timestamp: { epoch: 9_872 },
      delegate: { publicKey: missing, username: round.delegates[0].username },
    });
  }, 60_000);

  it('replays what a client missed since a height, 100 at most per answer, never splitting a block', async () => {
    const recipient = addressOf('live events catch-up recipient');
    const sender = secrets[2] as string;
    const since = node.kernel.cradle.blockProcessor.lastBlock!.height;
    const nonce = await nonceOf(addressOf(sender));
    const transfers = (from: bigint, count: number): TransactionData[] =>
      Array.from({ length: count }, (_, i) =>
        transfer({ network: pubKeyHash, milestone: milestone() })
          .recipientId(recipient)
          .amount(1 + i)
          .nonce(from + BigInt(i))
          .sign(sender)
          .build(),
      );
    // Nobody listening: 60 + 60 transfers in two blocks, and an empty block after them.
    const first = await node.forge(transfers(nonce + 1n, 60));
    const second = await node.forge(transfers(nonce + 61n, 60));
    await node.forge([]);

    const channel = `/wallets/${recipient}/transactions`;
    const page1 = (await get(`/events?channel=${channel}&since=${since}`)).body;
    // 120 match: the answer stops before the block that would not fit whole.
    expect(page1.data.map((tx: Json) => tx.blockId)).toEqual(Array(60).fill(first.id));
    expect(page1.meta).toMatchObject({ since, until: first.height, complete: false });
    expect(page1.meta.sinceBlock.height).toBe(since);
    const page2 = (await get(`/events?channel=${channel}&since=${page1.meta.until}`)).body;
    expect(page2.data.map((tx: Json) => tx.blockId)).toEqual(Array(60).fill(second.id));
    expect(page2.meta).toMatchObject({ until: second.height + 1, complete: true });
    // The same objects a subscription pushes: the REST transaction shape.
    const rest = (await get(`/transactions/${page1.data[0].id}`)).body.data;
    expect(without(page1.data[0], 'confirmations')).toEqual(without(rest, 'confirmations'));

    const blocks = (await get(`/events?channel=/events/block.applied&since=${since}`)).body;
    expect(blocks.data.map((block: Json) => block.height)).toEqual([
      since + 1,
      since + 2,
      since + 3,
    ]);

    // @arkecosystem/client users read it as any other route.
    const ark = await new Connection(node.api).get('events', {
      searchParams: { channel: '/events/transaction.applied', since: first.height },
    });
    expect(ark.body.data).toHaveLength(60);

    const refused = async (query: string) => {
      const answer = await get(`/events?${query}`);
      expect(answer.status).toBe(422);
      return answer.body.message as string;
    };
    expect(await refused('channel=/events/block.applied&since=0')).toMatch(
      /^since: at most 50 blocks/,
    );
    expect(await refused(`channel=/wallets/${recipient}&since=${since}`)).toMatch(/^channel: only/);
    expect(await refused(`channel=/wallets/nonsense/transactions&since=${since}`)).toMatch(
      /^channel: nonsense is not an address/,
    );
    expect(await refused('channel=/events/block.applied')).toMatch(/"since" is required/);
  }, 60_000);

  it("a client that reconnects gets every confirmation it missed, as the README's client does", async () => {
    const recipient = addressOf('live events reconnecting wallet');
    const watched = `/wallets/${recipient}/transactions`;
    const sender = secrets[3] as string;
    const confirmed: string[] = [];
    let seen = 0;
    const client = new Nes.Client(ws);
    clients.push(client);
    client.onConnect = async () => {
      for (let page: Json = { meta: { until: seen, complete: seen === 0 } }; !page.meta.complete;) {
        page = (await get(`/events?channel=${watched}&since=${page.meta.until}`)).body;
        for (const tx of page.data) confirmed.push(tx.id);
      }
    };
    await client.connect({ reconnect: false });
    await client.subscribe(watched, (tx) => {
      confirmed.push((tx as { id: string }).id);
    });
    await client.subscribe('/events/block.applied', (block) => {
      seen = (block as { height: number }).height;
    });
    let nonce = await nonceOf(addressOf(sender));
    const pay = () =>
      transfer({ network: pubKeyHash, milestone: milestone() })
        .recipientId(recipient)
        .amount(10)
        .nonce(++nonce)
        .sign(sender)
        .build();
    const sent = [pay()];
    await node.forge([sent[0]!]);
    await eventually(async () => (confirmed.length === 1 ? 1 : undefined), 5_000, 'live');
    await eventually(
      async () => (seen === node.kernel.cradle.blockProcessor.lastBlock!.height ? 1 : undefined),
      5_000,
      'the block',
    );

    await client.disconnect();
    for (let i = 0; i < 2; i++) {
      sent.push(pay());
      await node.forge([sent.at(-1)!]);
      await node.forge([]);
    }
    await client.connect({ reconnect: false });
    sent.push(pay());
    await node.forge([sent.at(-1)!]);
    await eventually(
      async () => (new Set(confirmed).size === 4 ? 1 : undefined),
      5_000,
      'all four',
    );
    // Each confirmation at least once; one pushed while the replay ran may come twice (by id).
    expect([...new Set(confirmed)].sort()).toEqual(sent.map((tx) => tx.id as string).sort());
    expect(confirmed.slice(0, 1)).toEqual([sent[0]!.id]);
  });

  it('limits connections and subscriptions per IP, and refuses a subscription to a malformed address', async () => {
    const open = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, connect));
    const extra = new Nes.Client(ws);
    clients.push(extra);
    await expect(extra.connect({ reconnect: false, timeout: 5_000 })).rejects.toThrow();
    await open[0]!.client.disconnect();
    await sleep(100);
    await connect();

    const many = open[1]!;
    const paths = Array.from(
      { length: MAX_SUBSCRIPTIONS },
      (_, i) => `/wallets/${addressOf(`live events limit ${i}`)}`,
    );
    await many.subscribe(...paths);
    await expect(many.subscribe(`/wallets/${addressOf('one too many')}`)).rejects.toMatchObject({
      statusCode: 429,
    });
    await expect(open[2]!.subscribe('/wallets/DNotAnAddress')).rejects.toMatchObject({
      statusCode: 422,
    });
  });

  it('serves the status page to browsers at / and the JSON greeting to every other client', async () => {
    const root = node.api.replace(/\/api$/, '');
    const page = await fetch(`${root}/`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<title>LNI node status</title>');
    expect(await (await fetch(`${root}/`)).json()).toEqual({ data: 'Hello World!' });
    for (const asset of ['status.js', 'status.css', 'nes.js', 'uplot.js', 'uplot.css']) {
      expect((await fetch(`${root}/status/assets/${asset}`)).status).toBe(200);
    }
    expect((await fetch(`${root}/status/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('drops a subscriber that stops reading, and the others still receive everything', async () => {
    const reader = await connect();
    await reader.subscribe('/events/transaction.pool.added');
    // A raw websocket speaking nes' protocol that subscribes, then never reads again.
    const stalled = new WebSocket(ws);
    await new Promise((resolve, reject) => {
      stalled.once('open', resolve);
      stalled.once('error', reject);
    });
    const subscribed = new Promise((resolve) => stalled.on('message', resolve));
    stalled.send(
      JSON.stringify({
        type: 'hello',
        id: 1,
        version: '2',
        subs: ['/events/transaction.pool.added'],
      }),
    );
    await subscribed;
    (stalled as unknown as { _socket: { pause(): void } })._socket.pause();

    // 400 messages of 50 kB in bursts of 4 (below the bound, so a reader that keeps up is
    // never dropped): 20 MB, far more than the kernel's socket buffers hold for one reader.
    const events = node.kernel.app.events as unknown as {
      emit(name: string, payload: unknown): void;
    };
    const big = transfer({ network: pubKeyHash, milestone: milestone() })
      .recipientId(addressOf('live events big'))
      .amount(1)
      .nonce(1)
      .sign('live events big sender')
      .build();
    const count = 400;
    for (let i = 0; i < count; i++) {
      events.emit('transaction.pool.added', {
        transaction: { ...big, id: `${i}`, asset: { note: 'x'.repeat(50_000) } },
        origin: 'submitted',
      });
      // Let the sockets drain between bursts, as between real blocks.
      if (i % 4 === 3) await sleep(20);
    }
    const received = await reader.received('/events/transaction.pool.added', count);
    expect(received.map((message) => message.id)).toEqual(
      Array.from({ length: count }, (_, i) => `${i}`),
    );
    const dropped = node.kernel.logs.filter((record) => record.msg === 'Slow subscriber dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.backlogBytes).toBeGreaterThan(BACKLOG_KB * 1024);
    // Dropped at the bound: what waits for it is at most a burst past it, not all 20 MB.
    expect(dropped[0]!.backlogBytes).toBeLessThan(BACKLOG_KB * 1024 + 250_000);
    stalled.terminate();
  }, 60_000);
});
