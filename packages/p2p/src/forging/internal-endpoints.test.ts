import Joi from 'joi';
import { afterEach, describe, expect, it } from 'vitest';
import { PeerResponseError } from '../errors.js';
import { PeerClient } from '../peers/peer-client.js';
import {
  currentRoundResponseSchema,
  networkStateResponseSchema,
  transactionsForForgingResponseSchema,
} from '../protocol/messages.js';
import { MemoryChain } from '../testing/memory-chain.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';
import type { ForgingPort, ForgingRound } from './forging-port.js';

// The ledger (@lni/state) registers the real p2pForging; these tests use an in-test ForgingPort.
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

/** Connects as a forger process does: the handshake with role forger and no port. */
async function forgerClient(target: TestNode): Promise<PeerClient> {
  const client = new PeerClient({
    ip: '127.0.0.1',
    port: target.port,
    timeoutMs: 3_000,
    handshake: { nethash: target.chain.network.nethash, version: '3.0.0', port: 0, role: 'forger' },
  });
  clients.push(client);
  await client.connect();
  return client;
}

const forgerKey = `03${'ab'.repeat(32)}`;

function forgingOf(chain: MemoryChain, transactions: string[]): ForgingPort {
  return {
    currentRound: (): ForgingRound => ({
      round: 3,
      reward: 200_000_000n,
      slotTimestamp: 1_000,
      canForge: true,
      currentForger: forgerKey,
      nextForger: `02${'cd'.repeat(32)}`,
      lastBlock: { id: chain.status().header.id, height: chain.status().height },
      msUntilNextSlot: 6_500,
    }),
    transactionsForForging: async () => transactions,
  };
}

describe('internal endpoints for forgers', () => {
  it('serve the current round (reward as a decimal string) and the transactions to forge', async () => {
    const chain = new MemoryChain({ height: 9 });
    const relay = await node({ chain, forging: forgingOf(chain, ['ff00', 'ee11']) });
    const client = await forgerClient(relay);

    const round = await client.request('getCurrentRound', {}, currentRoundResponseSchema);
    expect(round).toMatchObject({ round: 3, reward: '200000000', currentForger: forgerKey });
    expect(round.lastBlock).toEqual({ id: chain.status().header.id, height: 9 });
    const transactions = await client.request(
      'getTransactionsForForging',
      {},
      transactionsForForgingResponseSchema,
    );
    expect(transactions).toEqual(['ff00', 'ee11']);
    // A forger is not a peer: the relay does not dial it back or list it.
    expect(relay.kernel.cradle.peerRepository.size).toBe(0);
  });

  it('answer 503 naming p2pForging when the ledger registered none', async () => {
    const relay = await node();
    const error = await (
      await forgerClient(relay)
    )
      .request('getCurrentRound', {}, Joi.any())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PeerResponseError);
    expect((error as PeerResponseError).statusCode).toBe(503);
    expect((error as PeerResponseError).message).toMatch(/p2pForging/);
  });

  it('refuse IPs outside remoteAccess with 403', async () => {
    const chain = new MemoryChain({ height: 3 });
    const relay = await node({
      chain,
      forging: forgingOf(chain, []),
      options: { remoteAccess: ['192.0.2.7'] },
    });
    const client = await forgerClient(relay);
    for (const name of [
      'getCurrentRound',
      'getTransactionsForForging',
      'getNetworkState',
    ] as const) {
      const error = await client.request(name, {}, Joi.any()).catch((caught: unknown) => caught);
      expect((error as PeerResponseError).statusCode, name).toBe(403);
    }
  });

  it('report the network state: heights, quorum of peers on our last block, blocks above ours', async () => {
    const base = new MemoryChain({ height: 10 });
    const level = await node({ chain: new MemoryChain({ base, height: 10 }) });
    const ahead = await node({ chain: new MemoryChain({ base, height: 11 }) });
    const farAhead = await node({ chain: new MemoryChain({ base, height: 13 }) });
    const fork = new MemoryChain({ base, height: 9 });
    fork.extend(2, 'other'); // its own blocks 10 and 11
    const forked = await node({ chain: fork });
    const behind = await node({ chain: new MemoryChain({ base, height: 8 }) });
    const relay = await node({
      chain: new MemoryChain({ base, height: 10 }),
      seeds: [level, ahead, farAhead, forked, behind].map((peer) => ({
        ip: '127.0.0.1',
        port: peer.port,
      })),
    });

    const state = await (
      await forgerClient(relay)
    ).request('getNetworkState', {}, networkStateResponseSchema);
    expect(state.nodeHeight).toBe(10);
    expect(state.peers).toBe(5);
    // Level, ahead and far ahead hold our block 10; the fork and the peer behind do not.
    expect(state.quorum).toBeCloseTo(3 / 5);
    // Two peers report 11 (ahead and forked): the height most peers report.
    expect(state.networkHeight).toBe(11);
    expect(state.blocksAboveHeight).toEqual([
      {
        id: ahead.chain.status().header.id,
        height: 11,
        generatorPublicKey: ahead.chain.status().header.generatorPublicKey,
      },
      {
        id: forked.chain.status().header.id,
        height: 11,
        generatorPublicKey: forked.chain.status().header.generatorPublicKey,
      },
      {
        id: farAhead.chain.status().header.id,
        height: 13,
        generatorPublicKey: farAhead.chain.status().header.generatorPublicKey,
      },
    ]);
  });
});
