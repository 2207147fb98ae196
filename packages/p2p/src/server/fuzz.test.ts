import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryChain } from '../testing/memory-chain.js';
import { connectTestClient } from '../testing/test-client.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';
import {
  getBlocksCodec,
  getCommonBlocksCodec,
  getPeersCodec,
  getStatusCodec,
  postBlockCodec,
  postTransactionsCodec,
} from '../wire/codecs.js';
import { decodeFrame, encodeFrame } from '../wire/frame.js';
import { WireError } from '../wire/wire-error.js';
import { INTERNAL_ROUTES, PUBLIC_ROUTES, routeId } from '../wire/routes.js';

/** A seeded generator (mulberry32): a failure replays with the same seed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, bytes, pick };
}

/** A full garbage collection, so the heap holds only what is still referenced. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const SEED = Number(process.env.P2P_FUZZ_SEED ?? 20261124);
const FRAMES = Number(process.env.P2P_FUZZ_FRAMES ?? 100_000);
const chain = new MemoryChain({ height: 40 });
const ids = chain.headers.map((header) => header.id);

/** Well-formed requests with random but valid contents: the server answers them. */
function benign(random: ReturnType<typeof generator>, id: number): Buffer {
  const headers = { version: '3.9.1' };
  const route = random.pick(['getStatus', 'getPeers', 'getCommonBlocks', 'getBlocks'] as const);
  const payload =
    route === 'getStatus'
      ? getStatusCodec.encodeRequest({ headers })
      : route === 'getPeers'
        ? getPeersCodec.encodeRequest({ headers })
        : route === 'getCommonBlocks'
          ? getCommonBlocksCodec.encodeRequest({
              ids: Array.from({ length: 1 + random.int(10) }, () => random.pick(ids)),
              headers,
            })
          : getBlocksCodec.encodeRequest({
              lastBlockHeight: 1 + random.int(60),
              blockLimit: 1 + random.int(20),
              headersOnly: random.next() < 0.5,
              headers,
            });
  return encodeFrame({ type: 'request', id, path: routeId(route), payload });
}

/** A frame or message an attacker or a broken peer might send. */
function hostile(random: ReturnType<typeof generator>, id: number): Buffer | string {
  const routes = [...PUBLIC_ROUTES, ...INTERNAL_ROUTES].map(routeId);
  switch (random.int(9)) {
    case 0: // random bytes of random length
      return random.bytes(random.int(64));
    case 1: {
      // a valid frame with bytes flipped anywhere, header included
      const frame = Buffer.from(benign(random, id));
      for (let flips = 1 + random.int(4); flips > 0; flips--) {
        frame[random.int(frame.length)] = random.int(256);
      }
      return frame;
    }
    case 2: // truncated
      return benign(random, id).subarray(0, random.int(20));
    case 3: // random protobuf payload on a real route, valid header
      return encodeFrame({
        type: 'request',
        id,
        path: random.pick(routes),
        payload: random.bytes(random.int(300)),
      });
    case 4: // unknown frame types, ids 0, path/socket lengths past the end
      return Buffer.concat([
        Buffer.from([random.int(3), random.pick([2, 4, 9, 200]), 0, 0, 0, random.int(2)]),
        random.bytes(8 + random.int(8)),
      ]);
    case 5: // text frames (stock nes JSON, or anything)
      return random.pick([
        'null',
        '{"type":"hello","id":1,"version":"2"}',
        random.bytes(10).toString('latin1'),
      ]);
    case 6: // a second hello, or a ping right after another
      return random.next() < 0.5
        ? encodeFrame({ type: 'hello', id, version: 2 })
        : encodeFrame({ type: 'ping', id });
    case 7: // oversized payloads on small routes
      return encodeFrame({
        type: 'request',
        id,
        path: routeId(random.pick(['getStatus', 'getPeers', 'getBlocks'] as const)),
        payload: random.bytes(1_100 + random.int(4_000)),
      });
    default: // well-formed codecs with hostile values
      return encodeFrame({
        type: 'request',
        id,
        path: routeId(random.pick(['postBlock', 'postTransactions'] as const)),
        payload:
          random.next() < 0.5
            ? postBlockCodec.encodeRequest({
                block: random.bytes(1 + random.int(200)),
                hops: random.int(300),
              })
            : postTransactionsCodec.encodeRequest({
                transactions: Array.from({ length: random.int(60) }, () =>
                  random.bytes(1 + random.int(80)),
                ),
                hops: 0,
              }),
      });
  }
}

describe('the P2P server under random and hostile frames', () => {
  let node: TestNode;
  beforeAll(async () => {
    // Loopback is exempt from penalties and limits by default: the fuzzer is never banned, and
    // every violation is still seen (and logged as one from an exempt IP).
    node = await startTestNode({ chain });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it(`takes ${FRAMES} frames over live sockets and still answers`, async () => {
    const random = generator(SEED);
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    let sent = 0;
    let connections = 0;
    const worker = async () => {
      while (sent < FRAMES) {
        const socket = new WebSocket(`ws://127.0.0.1:${node.port}`, { perMessageDeflate: false });
        socket.on('error', () => undefined);
        await new Promise<void>((resolve) => {
          socket.once('open', () => resolve());
          socket.once('close', () => resolve());
        });
        if (socket.readyState !== WebSocket.OPEN) continue;
        connections += 1;
        socket.send(encodeFrame({ type: 'hello', id: 1, version: 2 }));
        sent += 1;
        // A few answered requests, then one hostile frame, which usually ends the connection;
        // then a probe: its answer shows the hostile frame was read and the socket kept.
        const benignCount = random.int(24);
        for (let index = 0; index < benignCount; index++) {
          socket.send(benign(random, index + 2));
          sent += 1;
        }
        const bad = hostile(random, benignCount + 2);
        socket.send(bad, { binary: typeof bad !== 'string' });
        sent += 1;
        const probeId = 0xfffff;
        socket.send(
          encodeFrame({
            type: 'request',
            id: probeId,
            path: routeId('getStatus'),
            payload: getStatusCodec.encodeRequest({ headers: { version: '3.9.1' } }),
          }),
        );
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            socket.terminate();
            resolve();
          };
          const timer = setTimeout(done, 5_000);
          socket.on('message', (data: Buffer) => {
            if (data.length >= 6 && data.readUInt32BE(2) === probeId) done();
          });
          socket.once('close', done);
        });
      }
    };
    await Promise.all(Array.from({ length: 8 }, () => worker()));

    expect(sent).toBeGreaterThanOrEqual(FRAMES);
    // Still serving, and honest peers get their answers.
    const client = await connectTestClient(node.port);
    // (MemoryChain takes any posted bytes as "some next block": the fuzz grew it.)
    expect((await client.status()).state.height).toBe(chain.height);
    expect(await client.blocks(39, 2)).toHaveLength(2);
    client.close();
    // Nothing is kept per bad frame: once collected, the heap is about where it started.
    await new Promise((resolve) => setTimeout(resolve, 200));
    collectGarbage();
    const grownMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    expect(grownMb).toBeLessThan(16);
    expect(connections).toBeGreaterThan(FRAMES / 30);
    expect(node.kernel.cradle.p2pServer.connections).toBeLessThanOrEqual(1);
  }, 300_000);
});

describe('the wire decoders under random input', () => {
  it('refuse every malformed input with a WireError, never another exception (300,000 inputs)', () => {
    const random = generator(SEED + 1);
    const decoders: ((bytes: Buffer) => unknown)[] = [
      decodeFrame,
      getStatusCodec.decodeRequest,
      getStatusCodec.decodeReply,
      getPeersCodec.decodeReply,
      getCommonBlocksCodec.decodeRequest,
      getCommonBlocksCodec.decodeReply,
      getBlocksCodec.decodeRequest,
      getBlocksCodec.decodeReply,
      postBlockCodec.decodeRequest,
      postBlockCodec.decodeReply,
      postTransactionsCodec.decodeRequest,
      postTransactionsCodec.decodeReply,
    ];
    const valid = getBlocksCodec.encodeReply(
      chain.headers.slice(0, 3).map((header) => ({ header, transactions: [Buffer.alloc(40, 1)] })),
    );
    let refused = 0;
    for (let round = 0; round < 25_000; round++) {
      const input =
        round % 2 === 0
          ? random.bytes(random.int(120))
          : Buffer.from(valid).map((byte) => (random.next() < 0.02 ? random.int(256) : byte));
      for (const decode of decoders) {
        try {
          decode(Buffer.from(input));
        } catch (error) {
          if (!(error instanceof WireError)) throw error;
          refused += 1;
        }
      }
    }
    expect(refused).toBeGreaterThan(100_000);
  }, 120_000);
});
