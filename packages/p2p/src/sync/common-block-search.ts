import type { Chain } from '@lni/state/contracts';
import type { PeerClient } from '../peers/peer-client.js';
import { MAX_COMMON_BLOCK_IDS } from '../wire/codecs.js';

export type CommonBlockSearch =
  | { readonly found: true; readonly height: number }
  /** `lied`: the peer answered with a block we did not ask for; else it has none of ours. */
  | { readonly found: false; readonly lied: boolean; readonly reason: string };

/**
 * The highest height at which a peer holds our block, asked with getCommonBlocks (at most ten of
 * our ids at a time). The first question holds our last heights and ever older ones, so a fork
 * of a few blocks is found at once; then each question spreads nine heights evenly over the
 * range left, so any depth is found in a few round trips. Every question also holds a block the
 * peer is known to hold (the highest found so far; at first the genesis block): ARK Core closes
 * the socket instead of answering when it holds none of the ids, so a question must never miss.
 * A reply naming a block we did not ask for, or at another height, ends the search: the peer is
 * lying.
 */
export async function findHighestCommonBlock(
  chain: Pick<Chain, 'blockIds'>,
  client: Pick<PeerClient, 'commonBlocks'>,
  top: number,
  timeoutMs: () => number | undefined = () => undefined,
): Promise<CommonBlockSearch> {
  /** Highest height known to be common (0: none yet), and the highest not yet ruled out. */
  let low = 0;
  let high = top;
  let heights = probeHeights(top);
  while (high >= 1 && low < high) {
    // `low`'s block (the genesis block while low is 0) answers when no probe does.
    const probes = await chain.blockIds([...heights, Math.max(low, 1)]);
    const asked = new Map(probes.map((block) => [block.id, block.height]));
    if (asked.size === 0) break;
    const { common } = await client.commonBlocks([...asked.keys()], timeoutMs());
    if (common === null) {
      high = Math.min(...probes.map((block) => block.height)) - 1;
    } else {
      if (asked.get(common.id) !== common.height) {
        return {
          found: false,
          lied: true,
          reason: `getCommonBlocks answered ${common.id} at ${common.height}, which we did not ask`,
        };
      }
      low = common.height;
      const above = probes.map((block) => block.height).filter((height) => height > low);
      if (above.length > 0) high = Math.min(...above) - 1;
    }
    heights = spread(low + 1, high, MAX_COMMON_BLOCK_IDS - 1);
  }
  return low > 0
    ? { found: true, height: low }
    : { found: false, lied: false, reason: 'no block in common' };
}

/**
 * Our last heights, then ever further back (1, 2, 4, 8 … below): nine at most, leaving room in
 * a question for the block the peer is known to hold.
 */
export function probeHeights(height: number): number[] {
  const heights: number[] = [];
  for (let step = 0, back = 0; heights.length < MAX_COMMON_BLOCK_IDS - 1; step++) {
    const probe = height - back;
    if (probe < 1) break;
    heights.push(probe);
    back = step < 4 ? back + 1 : back * 2;
  }
  return heights;
}

/** Up to `count` heights from `from` to `to`, evenly spread, always including `to`. */
export function spread(from: number, to: number, count: number): number[] {
  if (to < from) return [];
  const span = to - from + 1;
  if (span <= count) return Array.from({ length: span }, (_, index) => from + index);
  const heights = new Set<number>();
  for (let index = 1; index <= count; index++) {
    heights.add(from - 1 + Math.round((span * index) / count));
  }
  return [...heights].sort((a, b) => a - b);
}
