import type { ForgingSchedule } from '../forging-schedule.js';

/**
 * A simple schedule for tests and the bench while the DPoS schedule of helper "state" is built:
 * fixed-length slots from the epoch, forged by the delegates in list order, round after round.
 */
export class RoundRobinSchedule implements ForgingSchedule {
  constructor(
    readonly delegates: readonly string[],
    readonly blocktime: number,
  ) {}

  slotOf(timestamp: number): number {
    return Math.floor(timestamp / this.blocktime);
  }

  forgerAt(_height: number, timestamp: number): string {
    return this.delegates[this.slotOf(timestamp) % this.delegates.length] as string;
  }
}
