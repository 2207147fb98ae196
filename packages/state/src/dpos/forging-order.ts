import { sha256 } from '@lni/crypto';

/**
 * The forging order of a round, as ARK 3.0 shuffles it: the ranked active delegates, swapped
 * with positions taken from sha256 of the round number (as a decimal string), the seed hashed
 * again every four swaps. ARK's loop advances its index once more after each group of four, so
 * every fifth position is not swapped from; we keep that, since peers must agree on the order.
 */
export function forgingOrder<T>(round: number, rankedDelegates: readonly T[]): T[] {
  const order = [...rankedDelegates];
  const count = order.length;
  let seed = sha256(Buffer.from(String(round), 'utf8'));
  for (let i = 0; i < count; i += 1) {
    for (let x = 0; x < 4 && i < count; i += 1, x += 1) {
      const target = (seed[x] as number) % count;
      const moved = order[target] as T;
      order[target] = order[i] as T;
      order[i] = moved;
    }
    seed = sha256(seed);
  }
  return order;
}
