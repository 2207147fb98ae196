import type { BlockReference } from '@lni/crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryChain } from '../testing/memory-chain.js';
import { RouteError } from '../transport/route-error.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';
import { probeHeights } from './common-block-search.js';

// The ledger is ours but not written yet: MemoryChain stands in for it as `chain`.
const nodes: TestNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

async function node(input: Parameters<typeof startTestNode>[0] = {}): Promise<TestNode> {
  const started = await startTestNode(input);
  nodes.push(started);
  return started;
}

const seedsOf = (...peers: TestNode[]) =>
  peers.map((peer) => ({ ip: '127.0.0.1', port: peer.port }));
const syncOptions = (batchSize: number) => ({
  sync: { enabled: false, batchSize, parallelDownloads: 3 },
});

/** A peer that answers getCommonBlocks as ARK Core 3.x does: with none of the ids, it closes the socket. */
class ArkCommonBlocks extends MemoryChain {
  override async commonBlock(ids: readonly string[]): Promise<BlockReference | undefined> {
    const common = await super.commonBlock(ids);
    if (!common) throw new RouteError(500, 'no common block');
    return common;
  }
}

describe('sync', () => {
  it('brings a fresh node to the network height from several peers, in order', async () => {
    const network = new MemoryChain({ height: 2_500 });
    const one = await node({ chain: new MemoryChain({ base: network, height: 2_500 }) });
    const two = await node({ chain: new MemoryChain({ base: network, height: 2_500 }) });
    const fresh = new MemoryChain({ base: network, height: 1 });
    const syncing = await node({
      chain: fresh,
      seeds: seedsOf(one, two),
      options: syncOptions(200),
    });

    const outcome = await syncing.kernel.cradle.blockSync.sync();

    expect(outcome).toEqual({ kind: 'synced', from: 1, height: 2_500 });
    expect(fresh.headers.map((header) => header.id)).toEqual(network.headers.map((h) => h.id));
    const sources = new Set(
      fresh.received.filter((entry) => entry.kind === 'block').map((entry) => entry.from.port),
    );
    expect(sources).toEqual(new Set([one.port, two.port]));
  });

  it('asks another peer for a batch when the peer it asked goes away mid-sync', async () => {
    const network = new MemoryChain({ height: 1_000 });
    const leaving = await node({ chain: new MemoryChain({ base: network, height: 1_000 }) });
    const staying = await node({ chain: new MemoryChain({ base: network, height: 1_000 }) });
    const chain = new MemoryChain({ base: network, height: 1 });
    chain.applyDelayMs = 1;
    const syncing = await node({
      chain,
      seeds: seedsOf(leaving, staying),
      options: syncOptions(100),
    });
    const run = syncing.kernel.cradle.blockSync.sync();
    while (chain.height < 120) await new Promise((resolve) => setTimeout(resolve, 10));
    await leaving.stop();
    nodes.splice(nodes.indexOf(leaving), 1);

    const outcome = await run;

    expect(outcome).toMatchObject({ kind: 'synced', height: 1_000 });
    expect(chain.headers.map((header) => header.id)).toEqual(network.headers.map((h) => h.id));
  });

  it('continues from its own height after a restart, with no gap', async () => {
    const network = new MemoryChain({ height: 1_200 });
    const peer = await node({ chain: new MemoryChain({ base: network, height: 1_200 }) });
    const chain = new MemoryChain({ base: network, height: 1 });
    chain.applyDelayMs = 1;
    const first = await node({ chain, seeds: seedsOf(peer), options: syncOptions(100) });
    void first.kernel.cradle.blockSync.sync().catch(() => undefined);
    while (chain.height < 150) await new Promise((resolve) => setTimeout(resolve, 10));
    await first.stop(); // the stop waits for the batch being applied
    nodes.splice(nodes.indexOf(first), 1);
    const stoppedAt = chain.height;
    expect(stoppedAt).toBeLessThan(1_200);

    chain.applyDelayMs = 0;
    const again = await node({ chain, seeds: seedsOf(peer), options: syncOptions(100) });
    const outcome = await again.kernel.cradle.blockSync.sync();

    expect(outcome).toMatchObject({ kind: 'synced', from: stoppedAt, height: 1_200 });
    expect(chain.headers.map((header) => header.height)).toEqual(
      Array.from({ length: 1_200 }, (_, index) => index + 1),
    );
    expect(chain.headers.map((header) => header.id)).toEqual(network.headers.map((h) => h.id));
  });

  it('on a fork most peers left, rolls back to the common block and follows their chain', async () => {
    const base = new MemoryChain({ height: 30 });
    const majority = new MemoryChain({ base, height: 24 });
    majority.extend(16, 'majority'); // 25..40 are theirs
    const peers = [
      await node({ chain: new MemoryChain({ base: majority, height: 40 }) }),
      await node({ chain: new MemoryChain({ base: majority, height: 38 }) }),
    ];
    const ours = new MemoryChain({ base, height: 30 });
    const syncing = await node({
      chain: ours,
      seeds: seedsOf(...peers),
      options: syncOptions(400),
    });

    const outcome = await syncing.kernel.cradle.blockSync.sync();

    expect(ours.reverts).toEqual([24]);
    expect(outcome).toMatchObject({ kind: 'synced', height: 40 });
    expect(ours.headers.map((header) => header.id)).toEqual(majority.headers.map((h) => h.id));
  });

  it('leaves a shorter fork for an ARK peer, which closes the socket when it holds none of the ids', async () => {
    const base = new MemoryChain({ height: 30 });
    const theirs = new ArkCommonBlocks({ base, height: 20 });
    theirs.extend(12, 'ark'); // 21..32: the longer branch
    const ark = await node({ chain: theirs });
    const ours = new MemoryChain({ base, height: 20 });
    ours.extend(6, 'lni'); // 21..26: the shorter one
    const syncing = await node({ chain: ours, seeds: seedsOf(ark), options: syncOptions(400) });

    const outcome = await syncing.kernel.cradle.blockSync.sync();

    expect(ours.reverts).toEqual([20]);
    expect(outcome).toMatchObject({ kind: 'synced', height: 32 });
    expect(ours.headers.map((header) => header.id)).toEqual(theirs.headers.map((h) => h.id));
  });

  it('stays on its chain when the longer fork has fewer peers than ours', async () => {
    const base = new MemoryChain({ height: 20 });
    const minority = new MemoryChain({ base, height: 15 });
    minority.extend(10, 'minority');
    const longFork = await node({ chain: minority });
    const sameA = await node({ chain: new MemoryChain({ base, height: 20 }) });
    const sameB = await node({ chain: new MemoryChain({ base, height: 20 }) });
    const ours = new MemoryChain({ base, height: 20 });
    const syncing = await node({
      chain: ours,
      seeds: seedsOf(longFork, sameA, sameB),
      options: syncOptions(400),
    });

    const outcome = await syncing.kernel.cradle.blockSync.sync();

    expect(outcome).toEqual({ kind: 'up-to-date', height: 20 });
    expect(ours.reverts).toEqual([]);
    expect(ours.status().header.id).toBe(base.status().header.id);
  });

  it('two nodes forked by a partition converge on the longer chain when it heals', async () => {
    const base = new MemoryChain({ height: 50 });
    const left = new MemoryChain({ base, height: 40 });
    left.extend(12, 'left'); // 41..52 forged while apart
    const right = new MemoryChain({ base, height: 40 });
    right.extend(15, 'right'); // 41..55
    const rightNode = await node({ chain: right, options: { sync: { enabled: true } } });
    // Healing: the left node dials the right one; both sync by themselves.
    await node({
      chain: left,
      seeds: seedsOf(rightNode),
      options: { sync: { enabled: true } },
    });

    const deadline = Date.now() + 5_000;
    while (left.status().header.id !== right.status().header.id && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(left.headers.map((header) => header.id)).toEqual(right.headers.map((h) => h.id));
    expect(left.reverts).toEqual([40]);
    expect(right.reverts).toEqual([]);
  });

  it("keeps each peer's height current for GET /api/peers as it polls them", async () => {
    const network = new MemoryChain({ height: 20 });
    const ahead = new MemoryChain({ base: network, height: 20 });
    const peer = await node({ chain: ahead });
    const syncing = await node({
      chain: new MemoryChain({ base: network, height: 20 }),
      seeds: seedsOf(peer),
      options: syncOptions(100),
    });
    const { peerRepository, blockSync } = syncing.kernel.cradle;
    expect(peerRepository.get('127.0.0.1', peer.port)?.height).toBe(20);

    ahead.extend(5);
    await blockSync.sync();

    expect(peerRepository.get('127.0.0.1', peer.port)?.height).toBe(25);
  });

  it('starts by itself when enabled: a node joining peers ahead catches up', async () => {
    const network = new MemoryChain({ height: 300 });
    const peer = await node({ chain: new MemoryChain({ base: network, height: 300 }) });
    const chain = new MemoryChain({ base: network, height: 3 });
    await node({ chain, seeds: seedsOf(peer), options: { sync: { enabled: true } } });
    const deadline = Date.now() + 5_000;
    while (chain.height < 300 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(chain.height).toBe(300);
  });
});

describe('probeHeights', () => {
  it('lists our last heights, then ever further back, at most 9: a tenth id (ARK’s limit) is kept for a block the peer holds', () => {
    expect(probeHeights(3)).toEqual([3, 2, 1]);
    const heights = probeHeights(1_000_000);
    expect(heights.slice(0, 6)).toEqual([1_000_000, 999_999, 999_998, 999_997, 999_996, 999_992]);
    expect(heights).toHaveLength(9);
    expect([...heights].sort((a, b) => b - a)).toEqual(heights);
  });
});
