import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.js';
import { MemoryChain } from '../testing/memory-chain.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';

const nodes: TestNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

async function node(input: Parameters<typeof startTestNode>[0] = {}): Promise<TestNode> {
  const started = await startTestNode(input);
  nodes.push(started);
  return started;
}

async function stopped(target: TestNode): Promise<void> {
  nodes.splice(nodes.indexOf(target), 1);
  await target.stop();
}

describe('dialling peers again', () => {
  it('dials a peer that went away again once it is back, and both know each other again', async () => {
    const base = new MemoryChain({ height: 9 });
    const b = await node({ chain: new MemoryChain({ base, height: 9 }) });
    const port = b.port;
    const a = await node({ seeds: [{ ip: '127.0.0.1', port }] });
    expect(a.kernel.cradle.peerRepository.has('127.0.0.1', port)).toBe(true);

    await stopped(b);
    await eventually(() => !a.kernel.cradle.peerRepository.has('127.0.0.1', port), 'b lost');
    // Down for a while: several failed dials, each wait longer than the last.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const back = await node({ chain: new MemoryChain({ base, height: 12 }), options: { port } });
    await eventually(
      () => a.kernel.cradle.peerRepository.get('127.0.0.1', port)?.height === 12,
      'b dialled again',
      6_000,
    );
    // b learns of a from a's call (dial-back), though it restarted without seeds.
    await eventually(() => back.kernel.cradle.peerRepository.has('127.0.0.1', a.port), 'dial-back');
  });

  it('keeps dialling a seed that is down at boot until it comes up', async () => {
    const probe = await node();
    const port = probe.port;
    await stopped(probe);
    const a = await node({ seeds: [{ ip: '127.0.0.1', port }] });
    expect(a.kernel.cradle.peerRepository.size).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await node({ options: { port } });
    await eventually(() => a.kernel.cradle.peerRepository.has('127.0.0.1', port), 'seed up', 6_000);
  });
});
