import { calculateRound, type Milestones } from '@lni/crypto';
import type { MissedSlot } from '../storage/missed-slot-storage.js';
import type { BlockHook } from '../blocks/block-hook.js';
import type { FullBlock } from '../blocks/block-store.js';
import type { WalletStore } from '../wallets/wallet-store.js';

/**
 * A gap longer than this many rounds is the network halting, not delegates failing one by one:
 * only its last rounds' worth of slots are recorded, so each delegate is charged at most this
 * many misses for it (and a chain restarted weeks after its genesis does not record millions).
 */
export const MAX_ROUNDS_PER_GAP = 3;

/** The slot arithmetic of the rounds (RoundKeeper). */
export interface SlotSchedule {
  timestampAt(height: number): number | undefined;
  slotOf(timestamp: number, height: number): number;
  slotTime(slot: number, height: number): number;
  forgerAt(height: number, timestamp: number): string;
}

/** What the block store and the `forger.missing` event read of the missed slots. */
export interface MissedSlotLog {
  /** The slots missed in the gap before the block at `height`. */
  missedAt(height: number): readonly MissedSlot[];
}

/**
 * Records, as each block is applied, the slots that passed empty since the block before it, and
 * whose they were: the delegates of the new block's round in their forging order. Each counts in
 * its wallet's `attributes.delegate.missedBlocks`; reverting the block takes them back. The boot
 * replay runs through here too, so the counts and the list are rebuilt from the chain.
 */
export class MissedSlotTracker implements BlockHook, MissedSlotLog {
  readonly #byHeight = new Map<number, readonly MissedSlot[]>();
  #total = 0;

  constructor(
    private readonly deps: {
      readonly schedule: SlotSchedule;
      readonly wallets: WalletStore;
      readonly milestones: Milestones;
    },
  ) {}

  /** Missed slots recorded on the chain as it stands. */
  get total(): number {
    return this.#total;
  }

  missedAt(height: number): readonly MissedSlot[] {
    return this.#byHeight.get(height) ?? [];
  }

  /** Every missed slot, oldest first. */
  all(): MissedSlot[] {
    return [...this.#byHeight.values()].flat().sort((a, b) => a.slot - b.slot);
  }

  /**
   * Starts from the slots storage recorded (a load of the wallet table instead of a replay);
   * the wallets' `missedBlocks` already count them.
   */
  restore(slots: Iterable<MissedSlot>): void {
    this.#byHeight.clear();
    this.#total = 0;
    const byHeight = new Map<number, MissedSlot[]>();
    for (const slot of slots) {
      const list = byHeight.get(slot.height);
      if (list) list.push(slot);
      else byHeight.set(slot.height, [slot]);
      this.#total++;
    }
    for (const [height, list] of byHeight) {
      this.#byHeight.set(
        height,
        list.sort((a, b) => a.slot - b.slot),
      );
    }
  }

  applied(block: FullBlock): void {
    // A block applied again after a failed write (its wallet changes were rolled back).
    this.#forget(block.height);
    const missed = this.#gapBefore(block);
    if (missed.length === 0) return;
    this.#byHeight.set(block.height, missed);
    this.#total += missed.length;
    for (const slot of missed) this.#count(slot.publicKey, 1);
  }

  reverted(block: FullBlock): void {
    for (const slot of this.missedAt(block.height)) this.#count(slot.publicKey, -1);
    this.#forget(block.height);
  }

  #forget(height: number): void {
    this.#total -= this.missedAt(height).length;
    this.#byHeight.delete(height);
  }

  /** The slots between the previous block's and this one's. */
  #gapBefore(block: FullBlock): MissedSlot[] {
    // The genesis block has no slot of a delegate: the chain's first gap is nobody's.
    if (block.height <= 2) return [];
    const { schedule, milestones } = this.deps;
    const previousTimestamp = schedule.timestampAt(block.height - 1);
    if (previousTimestamp === undefined) return [];
    const from = schedule.slotOf(previousTimestamp, block.height - 1) + 1;
    const to = schedule.slotOf(block.timestamp, block.height) - 1;
    if (to < from) return [];
    const active = milestones.at(block.height).activeDelegates;
    const first = Math.max(from, to - active * MAX_ROUNDS_PER_GAP + 1);
    const { round } = calculateRound(block.height, milestones);
    const missed: MissedSlot[] = [];
    for (let slot = first; slot <= to; slot++) {
      const timestamp = schedule.slotTime(slot, block.height);
      missed.push({
        slot,
        height: block.height,
        round,
        timestamp,
        publicKey: schedule.forgerAt(block.height, timestamp),
      });
    }
    return missed;
  }

  #count(publicKey: string, delta: number): void {
    const { wallets } = this.deps;
    const wallet = wallets.byPublicKey(publicKey);
    const delegate = wallet?.attributes.delegate;
    if (!wallet || !delegate) return;
    wallets.update(wallet.address, {
      attributes: {
        delegate: { ...delegate, missedBlocks: (delegate.missedBlocks ?? 0) + delta },
      },
    });
  }
}
