import { eventually, RawSocket, startTestNode, type TestNode } from '@lni/p2p/testing';
import { decodeFrame, encodeFrame, getBlocksCodec, routeId } from '@lni/p2p/wire';
import { createLogger } from '@lni/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FullBlock } from '../blocks/block-store.js';
import { nextBlock, testNetwork, testProcessor } from '../blocks/__fixtures__/test-chain.js';
import { openTestStore } from '../blocks/__fixtures__/test-database.js';
import { RoundKeeper } from '../rounds/round-keeper.js';
import { poolOptions } from '../pool/pool-options.js';
import { TransactionPool } from '../pool/transaction-pool.js';
import { LedgerChain } from './ledger-chain.js';

const logger = createLogger({ level: 'fatal' });
const network = testNetwork();

/** A GetBlocksRequest written by hand, so that any varint can stand for lastBlockHeight. */
function getBlocksPayload(lastBlockHeightVarint: Buffer): Buffer {
  const headers = Buffer.from([0x0a, 0x05, ...Buffer.from('3.9.1')]); // Headers { version }
  return Buffer.concat([
    Buffer.from([0x08]), // field 1 (lastBlockHeight), varint
    lastBlockHeightVarint,
    Buffer.from([0x10, 0x0a]), // field 2 (blockLimit): 10
    Buffer.from([0x2a, headers.length]), // field 5 (headers)
    headers,
  ]);
}

/** Protobuf's varint of an unsigned integer. */
function varint(value: bigint): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest > 0n ? low | 0x80 : low);
  } while (rest > 0n);
  return Buffer.from(bytes);
}

// The real ledger on its own PostgreSQL database behind the real p2p server, asked over a socket
// for blocks past its tip by heights PostgreSQL's integer cannot hold.
describe('getBlocks past the tip', () => {
  let db: Awaited<ReturnType<typeof openTestStore>>;
  let node: TestNode;
  let tip: number;

  beforeAll(async () => {
    db = await openTestStore();
    const { wallets, processor } = testProcessor(network, db.store);
    await processor.process(network.genesis);
    let previous = network.genesis;
    for (let i = 0; i < 3; i++) {
      previous = nextBlock(network, previous, []);
      await processor.process(previous);
    }
    tip = (processor.lastBlock as FullBlock).height;
    const ledger = new LedgerChain({
      blockProcessor: processor,
      transactionPool: new TransactionPool({
        wallets,
        milestones: network.milestones,
        network: { pubKeyHash: network.generated.network.pubKeyHash },
        tip: () => processor.lastBlock as FullBlock,
        poolOptions: poolOptions({ staticFees: false }),
        logger,
      }),
      blockStore: db.store,
      roundKeeper: new RoundKeeper({ wallets, milestones: network.milestones }),
      milestones: network.milestones,
      network: network.generated.network,
      logger,
    });
    // Loopback is exempt from penalties by default: watched here, as for any peer (its rate
    // limit, one getBlocks per 2 s, stays lifted for the four requests).
    node = await startTestNode({ ledger, options: { penalties: { exempt: [] } } });
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    await db?.close();
  });

  it.each([
    ['the tip + 1000', () => varint(BigInt(tip + 1_000))],
    ['2^31', () => varint(2n ** 31n)],
    ['2^32 - 1', () => varint(2n ** 32n - 1n)],
    ['-1 as a 10-byte varint', () => varint(2n ** 64n - 1n)],
  ])(
    'answers lastBlockHeight %s with no blocks, keeps the socket and logs no error',
    async (_, height) => {
      const payload = getBlocksPayload(height());
      const socket = await RawSocket.open(node.port);
      try {
        socket.send(encodeFrame({ type: 'hello', id: 1, version: 2 }));
        socket.send(encodeFrame({ type: 'request', id: 2, path: routeId('getBlocks'), payload }));
        await eventually(() => socket.received.length === 2 || !socket.isOpen, 'a reply');
        expect(socket.isOpen).toBe(true);
        const reply = decodeFrame(socket.received[1] as Buffer);
        expect(reply).toMatchObject({ type: 'request', id: 2, statusCode: 200 });
        expect(getBlocksCodec.decodeReply(reply.payload)).toEqual([]);
      } finally {
        socket.close();
      }
      expect(node.kernel.logs.filter((record) => (record.level as number) >= 50)).toEqual([]);
      expect(node.kernel.cradle.peerRepository.standing('127.0.0.1').score).toBe(0);
    },
  );
});
