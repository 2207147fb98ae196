import { AdminError } from '@lni/kernel';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Ten years: longer bans are a mistake, and `unban` ends any ban. */
const LONGEST_MS = 10 * 365 * UNIT_MS.d;

/** Milliseconds of a ban written as `90s`, `30m`, `1h` or `7d`; an AdminError naming the value otherwise. */
export function parseBanDuration(text: string): number {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!match || ms <= 0 || ms > LONGEST_MS) {
    throw new AdminError(
      'bad-input',
      `bad ban duration '${text}': write a number and a unit, s, m, h or d (such as 30m or 1h), at most 3650d`,
    );
  }
  return ms;
}
