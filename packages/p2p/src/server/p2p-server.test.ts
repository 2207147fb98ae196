import { afterEach, describe, expect, it } from 'vitest';
import { PeerResponseError } from '../errors.js';
import type { PeerClient } from '../peers/peer-client.js';
import { eventually } from '../testing/eventually.js';
import { MemoryChain, signatureOf } from '../testing/memory-chain.js';
import { connectTestClient, RawSocket } from '../testing/test-client.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';
import { encodeFrame } from '../wire/frame.js';
import { routeId } from '../wire/routes.js';

// The ledger is stood in for by MemoryChain as `chain`; the wire is the real one.
const nodes: TestNode[] = [];
const clients: PeerClient[] = [];
const raws: RawSocket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const raw of raws.splice(0)) raw.close();
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

async function node(input: Parameters<typeof startTestNode>[0] = {}): Promise<TestNode> {
  const started = await startTestNode(input);
  nodes.push(started);
  return started;
}

async function clientOf(target: TestNode, version = '3.9.1'): Promise<PeerClient> {
  const client = await connectTestClient(target.port, { version });
  clients.push(client);
  return client;
}

async function raw(target: TestNode): Promise<RawSocket> {
  const socket = await RawSocket.open(target.port);
  raws.push(socket);
  return socket;
}

const hello = () => encodeFrame({ type: 'hello', id: 1, version: 2 });
const request = (path: string, payload = Buffer.alloc(0), id = 2) =>
  encodeFrame({ type: 'request', id, path, payload });

/** Loopback is exempt from penalties by default; these tests watch them on 127.0.0.1. */
const watched = { penalties: { exempt: [] }, rateLimits: { exempt: [] } };

describe('two nodes on loopback', () => {
  it('dial the seeds, dial back who called, and answer getStatus and getPeers as ARK does', async () => {
    const b = await node({ chain: new MemoryChain({ height: 12 }) });
    const a = await node({ seeds: [{ ip: '127.0.0.1', port: b.port }] });

    const seenByA = a.kernel.cradle.peerRepository.get('127.0.0.1', b.port);
    expect(seenByA).toMatchObject({ ip: '127.0.0.1', port: b.port, height: 12, version: '3.9.1' });
    expect(seenByA?.latency).toBeGreaterThanOrEqual(0);
    // B dials back the peer that called it, on the port its headers name.
    await eventually(() => b.kernel.cradle.peerRepository.has('127.0.0.1', a.port), 'dial-back');

    const status = await (await clientOf(b)).status();
    expect(status.state).toEqual({
      height: 12,
      header: b.chain.status().header,
      forgingAllowed: true,
      currentSlot: 12,
    });
    expect(status.config).toMatchObject({
      version: '3.9.1',
      network: { name: 'testnet', nethash: b.chain.network.nethash, version: 23 },
    });
    // A stranger on another port sees A among B's peers; A asking is left out itself.
    const stranger = await connectTestClient(b.port, { version: '3.9.1', port: 9 });
    clients.push(stranger);
    expect(await stranger.peers()).toEqual([{ ip: '127.0.0.1', port: a.port }]);
    const fromA = a.kernel.cradle.peerNetwork.client('127.0.0.1', b.port);
    expect(await fromA?.peers()).toEqual([]);
  });

  it('discovers a third node through getPeers and respects the cap on peers', async () => {
    const c = await node();
    const b = await node({ seeds: [{ ip: '127.0.0.1', port: c.port }] });
    const a = await node({ seeds: [{ ip: '127.0.0.1', port: b.port }] });
    expect(a.kernel.cradle.peerRepository.has('127.0.0.1', c.port)).toBe(false);
    expect(await a.kernel.cradle.peerDiscovery.discover()).toBe(1);
    expect(a.kernel.cradle.peerRepository.has('127.0.0.1', c.port)).toBe(true);

    const capped = await node({
      options: { maxPeers: 1 },
      seeds: [{ ip: '127.0.0.1', port: b.port }],
    });
    expect(await capped.kernel.cradle.peerDiscovery.discover()).toBe(0);
    expect(capped.kernel.cradle.peerRepository.size).toBe(1);
  });

  it('serve blocks above lastBlockHeight, headers only or whole, and common blocks', async () => {
    const b = await node({ chain: new MemoryChain({ height: 30 }) });
    b.chain.transactionsPerBlock = 0;
    const client = await clientOf(b);
    const blocks = await client.blocks(10, 5);
    expect(blocks.map((block) => block.header.height)).toEqual([10, 11, 12, 13, 14]);
    expect(blocks[0]?.header).toEqual(b.chain.headers[9]);
    const headers = await client.blocks(29, 400, true);
    expect(headers.map((block) => block.header.height)).toEqual([29, 30]);

    const ids = [b.chain.headers[3]!.id, b.chain.headers[20]!.id, 'ab'.repeat(32)];
    expect(await client.commonBlocks(ids)).toEqual({ common: { id: ids[1], height: 21 } });
    // None in common: an empty reply (common null), not a dropped socket.
    expect(await client.commonBlocks(['cd'.repeat(32)])).toEqual({ common: null });
    expect(client.isOpen).toBe(true);
  });

  it('hand posted blocks and transactions to the ledger with the sender, and say what became of them', async () => {
    const b = await node();
    const client = await clientOf(b);
    expect(await client.postBlock(b.chain.nextBlock(), 0)).toEqual({
      status: true,
      height: 6,
      verdict: 'accepted',
    });
    const unchained = new MemoryChain({ height: 20 }).nextBlock();
    expect(await client.postBlock(unchained, 0)).toMatchObject({
      status: false,
      verdict: 'rejected',
      reason: expect.stringMatching(/not the next block/),
    });
    const transactions = [Buffer.from('ff00', 'hex'), Buffer.from('0102', 'hex')];
    const reply = await client.postTransactions(transactions, 0);
    expect(reply.accept).toHaveLength(2);
    expect(b.chain.received.map((entry) => [entry.kind, entry.from.ip])).toEqual([
      ['block', '127.0.0.1'],
      ['block', '127.0.0.1'],
      ['transactions', '127.0.0.1'],
    ]);
  });
});

describe('verifying a peer as ARK does', () => {
  it('asks a peer that is not ready again on the same socket until it is, as ARK boots', async () => {
    const chain = new MemoryChain({ height: 12 });
    chain.booting = true;
    const b = await node({ chain });
    const a = await node();
    let socketsWhileBooting = 0;
    setTimeout(() => {
      socketsWhileBooting = b.kernel.cradle.p2pServer.gate.connectionsFrom('127.0.0.1');
      chain.booting = false;
    }, 1_500);
    expect(await a.kernel.cradle.peerNetwork.connect('127.0.0.1', b.port)).toBe('added');
    expect(a.kernel.cradle.peerRepository.get('127.0.0.1', b.port)).toMatchObject({ height: 12 });
    // Two answers of 499 by then, and still A's one connection to B (B's dial-back of A, once A
    // called it, is a socket on A's server).
    expect(socketsWhileBooting).toBe(1);
  });

  it('gives up on a peer still not ready when its verification time is out', async () => {
    const chain = new MemoryChain({ height: 12 });
    chain.booting = true;
    const b = await node({ chain });
    const a = await node({ options: { verifyTimeoutMs: 1_500 } });
    await expect(a.kernel.cradle.peerNetwork.connect('127.0.0.1', b.port)).rejects.toMatchObject({
      statusCode: 499,
    });
    expect(a.kernel.cradle.peerRepository.has('127.0.0.1', b.port)).toBe(false);
  });

  it('stops waiting for a peer that is not ready when the node stops', async () => {
    const chain = new MemoryChain({ height: 12 });
    chain.booting = true;
    const b = await node({ chain });
    const a = await node();
    const dial = a.kernel.cradle.peerNetwork.connect('127.0.0.1', b.port);
    const failed = expect(dial).rejects.toMatchObject({ kind: 'disconnected' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopping = performance.now();
    await a.kernel.cradle.peerNetwork.disconnectAll();
    await failed;
    // At the next question at the latest, a second after the last: not at the 60 s deadline.
    expect(performance.now() - stopping).toBeLessThan(1_500);
  });

  it('refuses a peer of another network and forgets it', async () => {
    const other = await node({ chain: new MemoryChain({ nethash: 'cd'.repeat(32) }) });
    const a = await node({ seeds: [{ ip: '127.0.0.1', port: other.port }] });
    expect(a.kernel.cradle.peerRepository.size).toBe(0);
    expect(a.kernel.cradle.peerRepository.lost()).toEqual([]);
    expect(
      a.kernel.logs.some(
        (record) =>
          record.msg === 'Peer not verified' && /another network/.test(String(record.reason)),
      ),
    ).toBe(true);
  });

  it('refuses versions outside its ranges, on requests and when verifying', async () => {
    const b = await node();
    const old = await clientOf(b, '2.7.25');
    const error = await old.status().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PeerResponseError);
    expect((error as PeerResponseError).kind).toBe('disconnected');
    await expect((await clientOf(b, '3.4.1')).status()).resolves.toBeDefined();

    const strict = await node({
      options: { minimumVersions: ['>=3.9.0'] },
      seeds: [{ ip: '127.0.0.1', port: (await node({ options: { version: '3.2.0' } })).port }],
    });
    expect(strict.kernel.cradle.peerRepository.size).toBe(0);
  });

  it('refuses a peer whose last block is not signed by its generator', async () => {
    const forged = new MemoryChain({ height: 9 });
    const last = forged.headers[8]!;
    forged.headers[8] = { ...last, blockSignature: signatureOf('someone else') };
    const liar = await node({ chain: forged });
    const a = await node({
      chain: new MemoryChain({ height: 3 }),
      seeds: [{ ip: '127.0.0.1', port: liar.port }],
    });
    expect(a.kernel.cradle.peerRepository.size).toBe(0);
  });

  it('verifies a forked peer through common blocks and marks it forked', async () => {
    const base = new MemoryChain({ height: 60 });
    const fork = new MemoryChain({ base, height: 40 });
    fork.extend(25, 'other');
    const forked = await node({ chain: fork });
    const a = await node({
      chain: new MemoryChain({ base, height: 60 }),
      seeds: [{ ip: '127.0.0.1', port: forked.port }],
    });
    const [record] = a.kernel.cradle.peerRepository.records();
    // ARK's verdict: the peer left our chain below both tips.
    expect(record).toMatchObject({ port: forked.port, height: 65, forked: true });
    // At or below our height, a peer on another branch counts as forked.
    const short = new MemoryChain({ base, height: 40 });
    short.extend(10, 'other');
    const behind = await node({ chain: short });
    expect(await a.kernel.cradle.peerNetwork.connect('127.0.0.1', behind.port)).toBe('added');
    const seen = a.kernel.cradle.peerRepository.records().find((r) => r.port === behind.port);
    expect(seen?.forked).toBe(true);
  });
});

describe('misbehaviour', () => {
  it('closes the socket on a malformed request and penalises the sender', async () => {
    const b = await node({ options: watched });
    const socket = await raw(b);
    socket.send(hello());
    socket.send(request(routeId('getBlocks'), Buffer.from('0a', 'hex')));
    await eventually(() => !socket.isOpen, 'socket closed');
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(10);
    expect(b.chain.received).toEqual([]);
  });

  it.each([
    ['a text message', (socket: RawSocket) => socket.send('null', false)],
    ['a request before hello', (socket: RawSocket) => socket.send(request(routeId('getStatus')))],
    ['a frame shorter than its header', (socket: RawSocket) => socket.send(Buffer.alloc(5))],
    [
      'an unknown frame type',
      (socket: RawSocket) => socket.send(Buffer.concat([Buffer.from([0, 7]), Buffer.alloc(12, 1)])),
    ],
    [
      'a second hello',
      (socket: RawSocket) => {
        socket.send(hello());
        socket.send(hello());
      },
    ],
    [
      'an oversized getStatus',
      (socket: RawSocket) => {
        socket.send(hello());
        socket.send(request(routeId('getStatus'), Buffer.alloc(2048)));
      },
    ],
    [
      'an unknown route',
      (socket: RawSocket) => {
        socket.send(hello());
        socket.send(request('p2p.peer.rootShell'));
      },
    ],
  ])('closes the socket on %s and penalises it', async (_what, act) => {
    const b = await node({ options: watched });
    const socket = await raw(b);
    act(socket);
    await eventually(() => !socket.isOpen, 'socket closed');
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBeGreaterThan(0);
  });

  it('answers a hello with the heartbeat and a socket id, and pings get no answer', async () => {
    const b = await node();
    const socket = await raw(b);
    socket.send(hello());
    socket.send(encodeFrame({ type: 'ping', id: 9 }));
    await eventually(() => socket.received.length === 1, 'hello reply');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(socket.received).toHaveLength(1);
    const reply = socket.received[0]!;
    expect(reply.readUInt8(1)).toBe(0); // hello
    expect(reply.readUInt32BE(2)).toBe(1);
    expect([reply.readUInt16BE(10), reply.readUInt16BE(12)]).toEqual([15_000, 5_000]);
    expect(socket.isOpen).toBe(true);
  });

  it('bans an IP after repeated abuse: its sockets are dropped and new ones reset', async () => {
    const b = await node({ options: { ...watched, penalties: { exempt: [], banSeconds: 60 } } });
    const stay = await clientOf(b);
    for (let attempt = 0; attempt < 5; attempt++) {
      const socket = await raw(b);
      socket.send(hello());
      socket.send(request(routeId('getCommonBlocks'), Buffer.from('0a0178', 'hex')));
      await eventually(() => !socket.isOpen, 'socket closed');
    }
    const standing = b.kernel.cradle.peerRepository.standing('127.0.0.1');
    expect(Date.parse(standing.bannedUntil ?? '')).toBeGreaterThan(Date.now() + 50_000);
    await eventually(() => !stay.isOpen, 'the banned IP’s other socket dropped');
    await expect(RawSocket.open(b.port)).rejects.toThrow();
    expect(b.kernel.cradle.p2pServer.gate.refused().banned).toBeGreaterThanOrEqual(1);
    expect(b.kernel.cradle.peerRepository.bans()).toEqual([
      expect.objectContaining({ ip: '127.0.0.1', reason: expect.stringMatching(/ids\[0\]/) }),
    ]);
  });

  it('bans the sender of an invalid block at once', async () => {
    const b = await node({ options: watched });
    const client = await clientOf(b);
    await expect(client.postBlock(Buffer.from('dead00', 'hex'), 0)).rejects.toThrow(
      PeerResponseError,
    );
    expect(b.kernel.cradle.peerRepository.isBanned('127.0.0.1')).toBe(true);
    expect(b.kernel.cradle.peerRepository.bans()).toEqual([
      expect.objectContaining({ ip: '127.0.0.1', reason: expect.stringMatching(/signature/) }),
    ]);
  });

  it('closes the socket of a sender over a rate limit, and penalises it less', async () => {
    const getStatus = { points: 2, durationSeconds: 1 };
    const b = await node({
      options: { ...watched, rateLimits: { exempt: [], messages: { getStatus } } },
    });
    const client = await clientOf(b);
    await client.status();
    await client.status();
    await expect(client.status()).rejects.toThrow(PeerResponseError);
    expect(client.isOpen).toBe(false);
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(5);
    // Another route has its own budget.
    await expect((await clientOf(b)).peers()).resolves.toEqual([]);
  });

  it('never penalises nor bans loopback by default, where a core node’s forger lives', async () => {
    const b = await node();
    for (let attempt = 0; attempt < 8; attempt++) {
      const socket = await raw(b);
      socket.send('garbage', false);
      await eventually(() => !socket.isOpen, 'socket closed');
    }
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1')).toEqual({
      score: 0,
      bannedUntil: undefined,
    });
    await expect((await clientOf(b)).status()).resolves.toBeDefined();
  });

  it('refuses the internal routes to IPs outside remoteAccess', async () => {
    const b = await node({ options: { ...watched, remoteAccess: ['10.0.0.0/8'] } });
    const socket = await raw(b);
    socket.send(hello());
    socket.send(request(routeId('getNetworkState'), Buffer.from('{}')));
    await eventually(() => !socket.isOpen, 'socket closed');
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(10);
  });
});
