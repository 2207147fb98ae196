/** Whole steps below a second; whole seconds above. */
const STEPS_BELOW_A_SECOND = [1, 50, 100, 250, 500] as const;

/**
 * The statement timeout for a search that must end by `deadline`: the time left, rounded down
 * to a step (whole seconds from one second up). A search connection sets its timeout only when
 * a statement asks for another than the last one it ran with, and that costs a round trip of
 * its own: the exact time left differs at every request, the step seldom does. A statement
 * may so be cancelled up to one step before its deadline, never after it.
 */
export function statementTimeoutOf(deadline: number, now: number): number {
  const left = deadline - now;
  if (left >= 1_000) return Math.floor(left / 1_000) * 1_000;
  let step = 0;
  for (const candidate of STEPS_BELOW_A_SECOND) if (candidate <= left) step = candidate;
  return step;
}
