import Joi from 'joi';
import { afterEach, describe, expect, it } from 'vitest';
import { HandshakeError, PeerResponseError } from '../errors.js';
import { PeerClient } from '../peers/peer-client.js';
import { MemoryChain } from '../testing/memory-chain.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';
import { statusResponseSchema } from '../protocol/messages.js';

// The ledger is ours but not written yet: MemoryChain stands in for it as `p2pChain`.
const nodes: TestNode[] = [];
const clients: PeerClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnect()));
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

async function node(input: Parameters<typeof startTestNode>[0] = {}): Promise<TestNode> {
  const started = await startTestNode(input);
  nodes.push(started);
  return started;
}

/** A client speaking for a node that listens nowhere (port 9: discard, nothing answers there). */
async function clientOf(
  target: TestNode,
  handshake: Partial<{ nethash: string; version: string }> = {},
): Promise<PeerClient> {
  const client = new PeerClient({
    ip: '127.0.0.1',
    port: target.port,
    timeoutMs: 3_000,
    handshake: {
      nethash: handshake.nethash ?? target.chain.network.nethash,
      version: handshake.version ?? '3.0.0',
      port: 9,
    },
  });
  clients.push(client);
  await client.connect();
  return client;
}

async function failure(promise: Promise<unknown>): Promise<PeerResponseError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PeerResponseError);
  return error as PeerResponseError;
}

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('two nodes on loopback', () => {
  it('handshake from seeds, add each other, and exchange getStatus and getPeers', async () => {
    const b = await node({ chain: new MemoryChain({ height: 12 }) });
    const a = await node({ seeds: [{ ip: '127.0.0.1', port: b.port }] });

    const seenByA = a.kernel.cradle.peerRepository.get('127.0.0.1', b.port);
    expect(seenByA).toMatchObject({ ip: '127.0.0.1', port: b.port, height: 12, version: '3.0.0' });
    expect(seenByA?.latency).toBeGreaterThanOrEqual(0);
    expect(seenByA?.bannedUntil).toBeUndefined();
    // B dials back the peer that connected to it, so each knows the other.
    await eventually(() => b.kernel.cradle.peerRepository.has('127.0.0.1', a.port));

    const toB = a.kernel.cradle.peerNetwork.client('127.0.0.1', b.port);
    const status = await toB?.request('getStatus', {}, statusResponseSchema);
    expect(status?.header).toEqual(b.chain.status().header);
    expect(status?.network.nethash).toBe(b.chain.network.nethash);
    const peersOfB = await toB?.request('getPeers', {}, Joi.array());
    expect(peersOfB).toEqual([{ ip: '127.0.0.1', port: a.port, height: 5, version: '3.0.0' }]);
  });

  it('discovers a third node through getPeers and respects the cap on peers', async () => {
    const b = await node();
    const a = await node({ seeds: [{ ip: '127.0.0.1', port: b.port }] });
    await eventually(() => b.kernel.cradle.peerRepository.has('127.0.0.1', a.port));
    const c = await node({ seeds: [{ ip: '127.0.0.1', port: b.port }] });

    const added: number[] = [];
    c.kernel.cradle.events.on('peer.added', ({ port }) => void added.push(port));
    expect(await c.kernel.cradle.peerDiscovery.discover()).toBe(1);
    expect(added).toEqual([a.port]);
    expect(
      c.kernel.cradle.peerRepository
        .list()
        .map((peer) => peer.port)
        .sort(),
    ).toEqual([a.port, b.port].sort());

    const capped = await node({
      seeds: [{ ip: '127.0.0.1', port: b.port }],
      options: { maxPeers: 1 },
    });
    expect(await capped.kernel.cradle.peerDiscovery.discover()).toBe(0);
    expect(capped.kernel.cradle.peerRepository.size).toBe(1);
  });

  it('does not dial loopback or private addresses learned from peers unless told to', async () => {
    const b = await node();
    const a = await node({ seeds: [{ ip: '127.0.0.1', port: b.port }] });
    await eventually(() => b.kernel.cradle.peerRepository.has('127.0.0.1', a.port));
    const strict = await node({
      seeds: [{ ip: '127.0.0.1', port: b.port }],
      options: { acceptLocalPeers: false },
    });
    expect(await strict.kernel.cradle.peerDiscovery.discover()).toBe(0);
    expect(strict.kernel.cradle.peerRepository.has('127.0.0.1', a.port)).toBe(false);
  });

  it('penalises and drops a peer whose status does not match the schema', async () => {
    class GarbledChain extends MemoryChain {
      override status() {
        const status = super.status();
        return { ...status, header: { ...status.header, id: 'not-a-block-id' } };
      }
    }
    const b = await node({ chain: new GarbledChain() });
    const a = await node({ seeds: [{ ip: '127.0.0.1', port: b.port }] });
    expect(a.kernel.cradle.peerRepository.size).toBe(0);
    expect(a.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(10);
    expect(a.kernel.cradle.peerNetwork.connectedCount).toBe(0);
  });

  it('answers getBlocks with serialized blocks and getCommonBlocks with the highest common id', async () => {
    const b = await node({ chain: new MemoryChain({ height: 30 }) });
    const client = await clientOf(b);
    const blocks = await client.request('getBlocks', { fromHeight: 10, limit: 5 }, Joi.array());
    expect(blocks).toEqual(await b.chain.blocksFrom(10, 5));
    expect(blocks).toHaveLength(5);
    const ids = [b.chain.headers[3]!.id, b.chain.headers[20]!.id, 'ab'.repeat(32)];
    const common = await client.request('getCommonBlocks', { ids }, Joi.object());
    expect(common).toEqual({ common: { id: ids[1], height: 21 }, lastBlockHeight: 30 });
  });

  it('hands posted blocks and transactions to the ledger with the sender', async () => {
    const b = await node();
    const client = await clientOf(b);
    const answer = await client.request('postBlock', { block: 'ab01' }, Joi.object());
    expect(answer).toEqual({ status: 'accepted', height: 6 });
    await client.request('postTransactions', { transactions: ['ff00', '0102'] }, Joi.object());
    expect(b.chain.received.map((entry) => [entry.kind, entry.from])).toEqual([
      ['block', { ip: '127.0.0.1', port: 9 }],
      ['transactions', { ip: '127.0.0.1', port: 9 }],
    ]);
  });
});

describe('the handshake', () => {
  it('refuses a peer of another network and adds nothing', async () => {
    const b = await node();
    const error = await clientOf(b, { nethash: 'cd'.repeat(32) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(HandshakeError);
    expect((error as Error).message).toMatch(/wrong network/);

    const other = await node({
      chain: new MemoryChain({ nethash: 'cd'.repeat(32) }),
      seeds: [{ ip: '127.0.0.1', port: b.port }],
    });
    expect(other.kernel.cradle.peerRepository.size).toBe(0);
    expect(b.kernel.cradle.peerRepository.size).toBe(0);
  });

  it('refuses an incompatible major version and accepts another minor', async () => {
    const b = await node();
    await expect(clientOf(b, { version: '2.7.25' })).rejects.toThrow(
      /incompatible version 2\.7\.25/,
    );
    await expect(clientOf(b, { version: '3.4.1' })).resolves.toBeInstanceOf(PeerClient);
  });
});

describe('misbehaviour', () => {
  it('rejects a malformed message naming the field and penalises the sender', async () => {
    const b = await node();
    const client = await clientOf(b);
    const error = await failure(client.request('getBlocks', { fromHeight: -1 }, Joi.any()));
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/fromHeight/);
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(10);

    const tooMany = await failure(
      client.request('getBlocks', { fromHeight: 1, limit: 401 }, Joi.any()),
    );
    expect(tooMany.message).toMatch(/limit/);
    const notHex = await failure(
      client.request('postTransactions', { transactions: ['xyz'] }, Joi.any()),
    );
    expect(notHex.message).toMatch(/transactions\[0\]/);
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(30);
  });

  it('refuses an oversized message and penalises the sender', async () => {
    const b = await node();
    const client = await clientOf(b);
    const error = await failure(
      client.request('getCommonBlocks', { ids: ['a'.repeat(70_000)] }, Joi.any()),
    );
    expect(error.statusCode).toBe(413);
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(10);
  });

  it('closes a connection that sends a websocket frame beyond the largest message', async () => {
    const b = await node();
    const client = await clientOf(b);
    const huge = 'ab'.repeat(6 * 1024 * 1024); // 12 MiB of hex, above the 10 MiB block cap
    const error = await failure(client.request('postBlock', { block: huge }, Joi.any()));
    expect(error.statusCode).toBeUndefined();
    await eventually(() => !client.isOpen);
    expect(b.chain.received).toEqual([]);
  });

  it('bans an IP after repeated abuse: its socket is dropped and new ones are refused', async () => {
    const b = await node({ options: { penalties: { banSeconds: 60 } } });
    const client = await clientOf(b);
    for (let attempt = 0; attempt < 5; attempt++) {
      await failure(client.request('getBlocks', { fromHeight: 'x' }, Joi.any()));
    }
    const standing = b.kernel.cradle.peerRepository.standing('127.0.0.1');
    expect(Date.parse(standing.bannedUntil ?? '')).toBeGreaterThan(Date.now() + 50_000);
    await eventually(() => !client.isOpen);
    expect(b.kernel.cradle.peerRepository.bans()).toEqual([
      {
        ip: '127.0.0.1',
        bannedUntil: standing.bannedUntil,
        reason: expect.stringMatching(/fromHeight/),
      },
    ]);
    await expect(clientOf(b)).rejects.toThrow(/cannot connect/);
    expect(b.kernel.cradle.p2pServer.gate.refused().banned).toBe(1);
  });

  it('bans the sender of an invalid block at once', async () => {
    const b = await node();
    const client = await clientOf(b);
    const error = await failure(client.request('postBlock', { block: 'dead00' }, Joi.any()));
    expect(error.statusCode).toBe(422);
    expect(error.message).toMatch(/bad signature/);
    expect(b.kernel.cradle.peerRepository.isBanned('127.0.0.1')).toBe(true);
    // What GET /api/peers lists under meta.bans.
    expect(b.kernel.cradle.peerRepository.bans()).toEqual([
      expect.objectContaining({ ip: '127.0.0.1', reason: expect.stringMatching(/signature/) }),
    ]);
  });

  it('answers 429 naming the limit when a message comes too often', async () => {
    const getStatus = { points: 2, durationSeconds: 1 };
    // Loopback is exempt by default (the node's own forger); this test peer is not.
    const b = await node({ options: { rateLimits: { messages: { getStatus }, exempt: [] } } });
    const client = await clientOf(b);
    await client.request('getStatus', {}, statusResponseSchema);
    await client.request('getStatus', {}, statusResponseSchema);
    const error = await failure(client.request('getStatus', {}, statusResponseSchema));
    expect(error.statusCode).toBe(429);
    expect(error.message).toMatch(/rate limit of 2 per 1 s getStatus exceeded/);
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(5);
    // Another message type has its own budget.
    await expect(client.request('getPeers', {}, Joi.array())).resolves.toEqual([]);
  });

  it('never limits the exempt IPs (by default loopback, where the forger runs)', async () => {
    const getStatus = { points: 2, durationSeconds: 60 };
    const b = await node({ options: { rateLimits: { messages: { getStatus } } } });
    const client = await clientOf(b);
    for (let call = 0; call < 10; call++) {
      await client.request('getStatus', {}, statusResponseSchema);
    }
    expect(b.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(0);
  });
});

describe('internal endpoints', () => {
  it('answer the remoteAccess IPs and refuse others with 403', async () => {
    const open = await node({ chain: new MemoryChain({ height: 7 }) });
    const state = await (await clientOf(open)).request('getNetworkState', {}, Joi.object());
    expect(state).toEqual({
      nodeHeight: 7,
      networkHeight: 7,
      peers: 0,
      quorum: 0,
      blocksAboveHeight: [],
    });

    const closed = await node({ options: { remoteAccess: ['10.0.0.0/8'] } });
    const error = await failure((await clientOf(closed)).request('getNetworkState', {}, Joi.any()));
    expect(error.statusCode).toBe(403);
    expect(error.message).toMatch(/not in remoteAccess/);
  });
});
