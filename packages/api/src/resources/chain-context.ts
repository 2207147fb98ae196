import type { ChainContext } from '@lni/state/contracts';

export type { ChainContext };

export const confirmationsOf = (blockHeight: number, context: ChainContext): number =>
  Math.max(0, context.height - blockHeight + 1);
