import { afterEach, describe, expect, it } from 'vitest';
import type { PeerClient } from '../peers/peer-client.js';
import { eventually } from '../testing/eventually.js';
import { MemoryChain } from '../testing/memory-chain.js';
import { connectTestClient } from '../testing/test-client.js';
import { relaxedLimits, startTestNode, type TestNode } from '../testing/test-node.js';

// Two real nodes: `ahead` forges (a test client posts its blocks, as its forger would) and
// broadcasts to `behind`, which missed some. Both refuse a block not chained to their last one
// with `{ status: false, height }`, as ARK does, and `behind` holds `ahead` to ARK's postBlock
// limit (2 per 4 s, loopback not exempt): going over it would close the socket and fail these.
const nodes: TestNode[] = [];
const clients: PeerClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

async function pair(
  aheadHeight: number,
  behindChain: (base: MemoryChain) => MemoryChain,
  aheadOptions: Readonly<Record<string, unknown>> = {},
): Promise<{ ahead: TestNode; behind: TestNode; forger: PeerClient }> {
  const base = new MemoryChain({ height: aheadHeight });
  const behind = await startTestNode({
    chain: behindChain(base),
    options: { rateLimits: { ...relaxedLimits.rateLimits, exempt: [] } },
  });
  nodes.push(behind);
  const ahead = await startTestNode({
    chain: new MemoryChain({ base, height: aheadHeight }),
    seeds: [{ ip: '127.0.0.1', port: behind.port }],
    options: aheadOptions,
  });
  nodes.push(ahead);
  await eventually(
    () => ahead.kernel.cradle.peerNetwork.connectedCount === 1,
    'ahead connected to behind',
  );
  const forger = await connectTestClient(ahead.port);
  clients.push(forger);
  return { ahead, behind, forger };
}

/** Heights of the blocks a node was posted, in the order they arrived. */
const postedHeights = (node: TestNode) =>
  node.chain.received
    .filter((entry) => entry.kind === 'block')
    .map((entry) => JSON.parse((entry.payload as Buffer).toString('utf8')).height as number);

const tipId = (node: TestNode) => node.chain.status().header.id;

describe('catching up a peer that missed blocks', () => {
  it('sends a peer that refused a block the blocks it lacked, then the block, in order', async () => {
    const { ahead, behind, forger } = await pair(8, (base) => new MemoryChain({ base, height: 6 }));
    const answer = await forger.postBlock(ahead.chain.nextBlock(), 0);
    expect(answer.verdict).toBe('accepted');

    await eventually(() => behind.chain.height === 9, 'behind level with ahead', 15_000);
    expect(tipId(behind)).toBe(tipId(ahead));
    // Block 9 refused (behind was at 6), then 7, 8 and 9 again; none of them refused.
    expect(postedHeights(behind)).toEqual([9, 7, 8, 9]);
    expect(behind.kernel.cradle.peerRepository.bans()).toEqual([]);
    expect(ahead.kernel.cradle.peerNetwork.connectedCount).toBe(1);
  });

  it('leaves a peer that lacks more than catchUpMaxBlocks to its own sync', async () => {
    const { ahead, behind, forger } = await pair(8, (base) => new MemoryChain({ base, height: 4 }));
    await forger.postBlock(ahead.chain.nextBlock(), 0);
    await eventually(() => postedHeights(behind).length === 1, 'behind was posted block 9');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(postedHeights(behind)).toEqual([9]);
    expect(behind.chain.height).toBe(4);
  });

  it('sends nothing when catchUpMaxBlocks is 0', async () => {
    const { ahead, behind, forger } = await pair(
      8,
      (base) => new MemoryChain({ base, height: 7 }),
      { broadcast: { catchUpMaxBlocks: 0 } },
    );
    await forger.postBlock(ahead.chain.nextBlock(), 0);
    await eventually(() => postedHeights(behind).length === 1, 'behind was posted block 9');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(postedHeights(behind)).toEqual([9]);
  });

  it('gives up on a forked peer after one refusal, and tries once more only for a newer block', async () => {
    // behind shares blocks 1-6 and has its own 7: it refuses 9 (at 7) and then our 8 (not on its 7).
    const { ahead, behind, forger } = await pair(8, (base) => {
      const forked = new MemoryChain({ base, height: 6 });
      forked.extend(1, 'fork');
      return forked;
    });

    await forger.postBlock(ahead.chain.nextBlock(), 0);
    await eventually(() => postedHeights(behind).length === 2, 'behind was sent block 8');
    expect(postedHeights(behind)).toEqual([9, 8]);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // past the catch-up's spacing
    expect(postedHeights(behind)).toEqual([9, 8]);

    await forger.postBlock(ahead.chain.nextBlock(), 0);
    await eventually(() => postedHeights(behind).length === 4, 'behind was sent 10, then 8');
    expect(postedHeights(behind)).toEqual([9, 8, 10, 8]);
    expect(behind.chain.height).toBe(7);
  });

  it('sends a block that overtook the catch-up once the ones before it are there', async () => {
    const { ahead, behind, forger } = await pair(8, (base) => new MemoryChain({ base, height: 6 }));
    await forger.postBlock(ahead.chain.nextBlock(), 0);
    await forger.postBlock(ahead.chain.nextBlock(), 0);
    expect(ahead.chain.height).toBe(10);

    await eventually(() => behind.chain.height === 10, 'behind level with ahead', 20_000);
    expect(tipId(behind)).toBe(tipId(ahead));
    expect(behind.kernel.cradle.peerRepository.bans()).toEqual([]);
  });
});
