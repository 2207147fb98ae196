import type { CurrentRoundReply } from '@lni/p2p/wire';
import type { SignedMark } from '../guard/signing-record.js';

/** What `kernel forger:status` says of one delegate whose secret this forger holds. */
export interface DelegateStatus {
  readonly publicKey: string;
  readonly username?: string;
  /** Among the round's active delegates (a forger's relay lists only those). */
  readonly active?: boolean;
  readonly rank?: number;
  /** Epoch seconds of its next slot in this round, and that as a date. */
  readonly nextSlot?: { readonly slot: number; readonly at: Date };
  /** Whether its slot in this round passed without a block signed here; undefined: not yet. */
  readonly missedThisRound?: boolean;
  /** The double-sign guard's record: the last block this machine signed for it. */
  readonly lastSigned?: SignedMark;
}

export interface StatusInputs {
  readonly publicKeys: readonly string[];
  readonly marks: ReadonlyMap<string, SignedMark>;
  /** The relay's round, when it answered. */
  readonly round?: CurrentRoundReply;
  /** Block time (seconds) at the relay's height. */
  readonly blockTime: number;
  /** Epoch seconds to a date. */
  readonly toDate: (epochSeconds: number) => Date;
}

/**
 * Each delegate's place in the relay's round: the round lists its active delegates in forging
 * order, the current slot's among them, so a delegate's slot is as many block times away as
 * it stands after the current one (a missed slot in between moves every later one by a slot).
 */
export function delegateStatuses(inputs: StatusInputs): DelegateStatus[] {
  const { round, marks, blockTime, toDate } = inputs;
  const order = round?.delegates.map((wallet) => wallet.publicKey) ?? [];
  const current = round ? order.indexOf(round.currentForger.publicKey) : -1;
  return inputs.publicKeys.map((publicKey) => {
    const lastSigned = marks.get(publicKey);
    const base = { publicKey, ...(lastSigned && { lastSigned }) };
    if (!round) return base;
    const index = order.indexOf(publicKey);
    const wallet = round.delegates[index];
    if (index < 0 || current < 0 || wallet === undefined) return { ...base, active: false };
    const slotsAhead = (index - current + order.length) % order.length;
    const slot = round.timestamp + slotsAhead * blockTime;
    const passedSlot = round.timestamp - (current - index) * blockTime;
    return {
      ...base,
      active: true,
      ...(wallet.delegate.username && { username: wallet.delegate.username }),
      ...(wallet.delegate.rank !== undefined && { rank: wallet.delegate.rank }),
      nextSlot: { slot, at: toDate(slot) },
      ...(index < current && { missedThisRound: lastSigned?.slot !== passedSlot }),
    };
  });
}

/** The status as lines for the terminal: one block of lines per delegate. */
export function statusLines(statuses: readonly DelegateStatus[]): string[] {
  return statuses.flatMap((status) => {
    const name = status.username ?? status.publicKey;
    const registered =
      status.active === undefined
        ? 'unknown (the relay did not answer)'
        : status.active
          ? `yes, active${status.rank === undefined ? '' : `, rank ${status.rank}`}`
          : 'not among the active delegates of this round';
    const next = status.nextSlot
      ? `slot ${status.nextSlot.slot} at ${status.nextSlot.at.toISOString()}`
      : '-';
    const last = status.lastSigned
      ? `height ${status.lastSigned.height} (block ${status.lastSigned.id}, slot ${status.lastSigned.slot})`
      : 'nothing signed on this machine';
    const missed = !status.active
      ? 'unknown'
      : status.missedThisRound === undefined
        ? 'not yet'
        : status.missedThisRound
          ? 'yes'
          : 'no';
    return [
      `${name}${status.username ? ` (${status.publicKey})` : ''}`,
      `  registered: ${registered}`,
      `  next slot: ${next}`,
      `  last forged: ${last}`,
      `  missed this round: ${missed}`,
      `  guard: ${status.lastSigned ? `never signs at or below height ${status.lastSigned.height} or in slot ${status.lastSigned.slot} again` : 'no record yet'}`,
    ];
  });
}
