/**
 * Who may forge when: implemented by the DPoS part (rounds, forging order, slots). The block
 * processor only asks; it never computes rounds itself.
 */
export interface ForgingSchedule {
  /** The slot number of an epoch timestamp, for a block at `height`. */
  slotOf(timestamp: number, height: number): number;
  /** Public key of the delegate whose slot `timestamp` is, for the block at `height`. */
  forgerAt(height: number, timestamp: number): string;
}
