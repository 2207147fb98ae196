import { KernelError } from '@lni/errors';
import { milestoneChanges } from './milestone-changes.js';
import type { Milestones } from './milestones.js';

/**
 * The round a height lies in (ARK 3.0 calls it `RoundInfo`): a position in the chain, not the
 * forging round a relay hands a forger (`ForgingRound`).
 */
export interface RoundOfHeight {
  readonly round: number;
  /** Height of the first block of the round. */
  readonly roundHeight: number;
  /** The round of the next height (round + 1 when this height closes the round). */
  readonly nextRound: number;
  /** Active delegates of the round: the number of blocks in it. */
  readonly maxDelegates: number;
}

/** A milestone changes the delegate count somewhere other than at a round boundary. */
export class RoundConfigError extends KernelError {
  constructor(message: string) {
    super('ERR_ROUND_MILESTONE', message);
  }
}

/**
 * The round of a height. Rounds are `activeDelegates` blocks long; when a milestone changes the
 * count, the rounds before it are summed span by span (the change must fall on a round start).
 */
export function calculateRound(height: number, milestones: Milestones): RoundOfHeight {
  if (!Number.isSafeInteger(height) || height < 1) {
    throw new RoundConfigError(`height: expected a positive integer, got ${String(height)}`);
  }
  const changes = milestoneChanges(milestones, 'activeDelegates');
  let round = 1;
  let roundHeight = 1;
  let spanStart = 1;
  let activeDelegates = changes[0]?.value as number;
  for (const change of changes.slice(1)) {
    if (height < change.height) break;
    const span = change.height - spanStart;
    if (span % activeDelegates !== 0) {
      throw new RoundConfigError(
        `activeDelegates: the milestone at height ${change.height} does not start a round ` +
          `(rounds of ${activeDelegates} from height ${spanStart})`,
      );
    }
    round += span / activeDelegates;
    roundHeight = change.height;
    activeDelegates = change.value;
    spanStart = change.height;
  }
  const increase = Math.floor((height - spanStart) / activeDelegates);
  round += increase;
  roundHeight += increase * activeDelegates;
  const closesRound = (height - spanStart + 1) % activeDelegates === 0;
  return {
    round,
    roundHeight,
    nextRound: closesRound ? round + 1 : round,
    maxDelegates: activeDelegates,
  };
}

/** True when the height is the first block of a round. */
export function isNewRound(height: number, milestones: Milestones): boolean {
  return height === 1 || calculateRound(height, milestones).roundHeight === height;
}
