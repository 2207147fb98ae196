import type { BlockReference } from '@lni/crypto';
import { describe, expect, it } from 'vitest';
import type { CommonBlocksReply } from '../wire/messages.js';
import { findHighestCommonBlock } from './common-block-search.js';
import { onOurChain } from './sync-plan.js';
import { MemoryChain } from '../testing/memory-chain.js';

/**
 * A peer's getCommonBlocks as ARK Core 3.x answers it: the highest of the ids it holds, and
 * with none of them no answer at all (its socket closes), which the client sees as an error.
 */
function arkPeer(theirs: MemoryChain) {
  const questions: string[][] = [];
  return {
    questions,
    async commonBlocks(ids: readonly string[]): Promise<CommonBlocksReply> {
      questions.push([...ids]);
      const common: BlockReference | undefined = await theirs.commonBlock(ids);
      if (!common) throw new Error('server disconnected');
      return { common };
    },
  };
}

/** Two branches of one chain: the first `common` blocks shared, then `ours` and `theirs` each. */
function fork(common: number, ours: number, theirs: number) {
  const base = new MemoryChain({ height: common });
  const mine = new MemoryChain({ base, height: common });
  mine.extend(ours, 'ours');
  const other = new MemoryChain({ base, height: common });
  other.extend(theirs, 'theirs');
  return { mine, other };
}

describe('findHighestCommonBlock against a peer that closes the socket on no match', () => {
  it.each([
    ['a fork of a few blocks', 40, 6, 9],
    // The first question finds the common block itself; every height left above it is not.
    ['a fork at one of the first probes', 100, 8, 10],
    ['a fork deeper than every probe of the first question', 1_000, 700, 800],
    ['a fork right after the genesis block', 1, 300, 400],
  ])(
    'finds the block in common for %s, every question answered',
    async (_, common, ours, theirs) => {
      const { mine, other } = fork(common, ours, theirs);
      const peer = arkPeer(other);

      const search = await findHighestCommonBlock(mine, peer, mine.height);

      expect(search).toEqual({ found: true, height: common });
      for (const ids of peer.questions) {
        expect(ids.length).toBeLessThanOrEqual(10);
        expect(await other.commonBlock(ids)).toBeDefined();
      }
    },
  );

  it('still tells a peer that names a block it was not asked for', async () => {
    const { mine, other } = fork(30, 3, 5);
    const liar = {
      commonBlocks: async (): Promise<CommonBlocksReply> => ({
        common: { id: other.status().header.id, height: 35 },
      }),
    };

    const search = await findHighestCommonBlock(mine, liar, mine.height);

    expect(search).toMatchObject({ found: false, lied: true });
  });
});

describe('onOurChain against a peer that closes the socket on no match', () => {
  it('is false for a peer ahead on another branch, without losing the connection', async () => {
    const { mine, other } = fork(20, 3, 8);
    const peer = arkPeer(other);
    const [genesis] = await mine.blockIds([1]);
    const status = { state: { height: other.height, header: other.status().header } };

    const answer = await onOurChain(peer, status as never, mine.status().header, genesis!);

    expect(answer).toBe(false);
    expect(peer.questions).toEqual([[mine.status().header.id, genesis!.id]]);
  });

  it('is true for a peer ahead on our chain', async () => {
    const base = new MemoryChain({ height: 30 });
    const mine = new MemoryChain({ base, height: 25 });
    const peer = arkPeer(base);
    const [genesis] = await mine.blockIds([1]);
    const status = { state: { height: base.height, header: base.status().header } };

    expect(await onOurChain(peer, status as never, mine.status().header, genesis!)).toBe(true);
  });
});
