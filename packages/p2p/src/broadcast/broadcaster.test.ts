import { afterEach, describe, expect, it } from 'vitest';
import type { PeerClient } from '../peers/peer-client.js';
import { eventually } from '../testing/eventually.js';
import { MemoryChain } from '../testing/memory-chain.js';
import { connectTestClient } from '../testing/test-client.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';
import { SeenSet } from './seen-set.js';

// MemoryChain stands in for the ledger as `chain`.
const nodes: TestNode[] = [];
const clients: PeerClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

async function node(input: Parameters<typeof startTestNode>[0] = {}): Promise<TestNode> {
  const started = await startTestNode(input);
  nodes.push(started);
  return started;
}

/** A client that names no port: like a forger, it is not dialled back nor left out. */
async function forgerClient(target: TestNode): Promise<PeerClient> {
  const client = await connectTestClient(target.port);
  clients.push(client);
  return client;
}

/** a - b - c in a line: a and c know only b, so anything reaching c went through b. */
async function line(options: Readonly<Record<string, unknown>> = {}): Promise<TestNode[]> {
  const base = new MemoryChain({ height: 5 });
  const b = await node({ chain: new MemoryChain({ base, height: 5 }), options });
  const seeds = [{ ip: '127.0.0.1', port: b.port }];
  const a = await node({ chain: new MemoryChain({ base, height: 5 }), seeds, options });
  const c = await node({ chain: new MemoryChain({ base, height: 5 }), seeds, options });
  await eventually(
    () => b.kernel.cradle.peerNetwork.connectedCount === 2,
    'b dialled a and c back',
  );
  return [a, b, c] as TestNode[];
}

const blocksReceived = (target: TestNode) =>
  target.chain.received.filter((entry) => entry.kind === 'block');

describe('broadcast', () => {
  it('passes a block accepted by one node on to all, each receiving it once', async () => {
    const [a, b, c] = (await line()) as [TestNode, TestNode, TestNode];
    const block = a.chain.nextBlock();
    const answer = await (await forgerClient(a)).postBlock(block, 0);
    expect(answer.verdict).toBe('accepted');

    await eventually(() => c.chain.height === 6, 'c applied the block');
    expect(b.chain.status().header.id).toBe(a.chain.status().header.id);
    expect(c.chain.status().header.id).toBe(a.chain.status().header.id);
    // b got it from a (one hop), c from b (two); nobody sent it back to a.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(blocksReceived(b).map((entry) => entry.from.port)).toEqual([a.port]);
    expect(blocksReceived(c).map((entry) => entry.from.port)).toEqual([b.port]);
    expect(blocksReceived(a)).toHaveLength(1);
  });

  it('passes transactions on to the pools of the other nodes', async () => {
    const [a, , c] = (await line()) as [TestNode, TestNode, TestNode];
    const transactions = [Buffer.from('ff01', 'hex'), Buffer.from('ff02', 'hex')];
    await (await forgerClient(a)).postTransactions(transactions, 0);
    await eventually(
      () => c.chain.received.some((entry) => entry.kind === 'transactions'),
      'c received the transactions',
    );
    const atC = c.chain.received.filter((entry) => entry.kind === 'transactions');
    expect(atC.map((entry) => entry.payload)).toEqual([transactions]);
  });

  it('stops at the hop limit', async () => {
    const [a, b, c] = (await line({ broadcast: { maxHops: 1 } })) as [TestNode, TestNode, TestNode];
    await (await forgerClient(a)).postBlock(a.chain.nextBlock(), 0);
    await eventually(() => b.chain.height === 6, 'b applied the block');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(c.chain.height).toBe(5);
  });
});

describe('SeenSet', () => {
  it('reports each payload new once and forgets the oldest beyond its capacity', () => {
    const seen = new SeenSet(2);
    const [aa, bb, cc] = ['aa', 'bb', 'cc'].map((hex) => Buffer.from(hex, 'hex')) as [
      Buffer,
      Buffer,
      Buffer,
    ];
    expect(seen.add(aa)).toBe(true);
    expect(seen.add(aa)).toBe(false);
    seen.add(bb);
    seen.add(cc);
    expect(seen.size).toBe(2);
    expect(seen.add(aa)).toBe(true);
    expect(seen.add(cc)).toBe(false);
  });
});
