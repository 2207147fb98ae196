import type { Milestones } from '@lni/crypto';
import type { BlockHook } from '../blocks/block-hook.js';
import type { FullBlock } from '../blocks/block-store.js';
import type { ForgingSchedule } from '../blocks/forging-schedule.js';
import { rankDelegates } from '../dpos/delegate-ranking.js';
import { forgingOrder } from '../dpos/forging-order.js';
import { calculateRound } from '../dpos/rounds.js';
import { Slots } from '../dpos/slots.js';
import type { WalletStore } from '../wallets/wallet-store.js';

/** The delegates elected for a round, in forging order, with the votes that elected them. */
export interface ElectedRound {
  readonly round: number;
  readonly order: readonly string[];
  readonly votes: ReadonlyMap<string, bigint>;
}

/**
 * Elects the active delegates of each round and answers who forges which slot. A round's
 * delegates are the top `activeDelegates` by votes once the round before it (or the genesis
 * block) is applied, shuffled into ARK 3.0's forging order. Elections are remembered so that
 * reverting into an earlier round finds its delegates again.
 */
export class RoundKeeper implements BlockHook, ForgingSchedule {
  readonly slots: Slots;
  readonly #wallets: WalletStore;
  readonly #milestones: Milestones;
  readonly #elected = new Map<number, ElectedRound>();
  /** Timestamps of the blocks the slot arithmetic asks for (blocktime milestone spans). */
  readonly #timestamps = new Map<number, number>();
  readonly #onElected: (round: ElectedRound) => void;

  constructor(deps: {
    wallets: WalletStore;
    milestones: Milestones;
    onElected?: (round: ElectedRound) => void;
  }) {
    this.#wallets = deps.wallets;
    this.#milestones = deps.milestones;
    this.slots = new Slots({ milestones: deps.milestones });
    this.#onElected = deps.onElected ?? (() => undefined);
  }

  applied(block: FullBlock): void {
    this.#timestamps.set(block.height, block.timestamp);
    const next = calculateRound(block.height + 1, this.#milestones).round;
    if (block.height === 1 || next !== calculateRound(block.height, this.#milestones).round) {
      this.#elect(next);
    }
  }

  reverted(block: FullBlock): void {
    this.#timestamps.delete(block.height);
    const next = calculateRound(block.height + 1, this.#milestones).round;
    if (next !== calculateRound(block.height, this.#milestones).round || block.height === 1) {
      this.#elected.delete(next);
      rankDelegates(this.#wallets);
    }
  }

  /** The round a height belongs to, with its delegates; undefined before its election. */
  electedFor(height: number): ElectedRound | undefined {
    return this.#elected.get(calculateRound(height, this.#milestones).round);
  }

  slotOf(timestamp: number, height: number): number {
    return this.slots.getSlotNumber(this.#lookup, timestamp, height);
  }

  /** Epoch seconds at which a slot begins, for a block at `height`. */
  slotTime(slot: number, height: number): number {
    return this.slots.getSlotTime(this.#lookup, slot, height);
  }

  forgerAt(height: number, timestamp: number): string {
    const elected = this.electedFor(height);
    if (elected === undefined || elected.order.length === 0) {
      throw new Error(`no delegates elected for the round of height ${height}`);
    }
    const slot = this.slotOf(timestamp, height);
    return elected.order[slot % elected.order.length] as string;
  }

  readonly #lookup = (height: number): number => {
    const timestamp = this.#timestamps.get(height);
    if (timestamp === undefined) throw new Error(`no block timestamp known at height ${height}`);
    return timestamp;
  };

  #elect(round: number): void {
    const active = this.#milestones.at(this.#firstHeightOf(round)).activeDelegates;
    const ranked = rankDelegates(this.#wallets).slice(0, active);
    const elected: ElectedRound = {
      round,
      order: forgingOrder(
        round,
        ranked.map((wallet) => wallet.publicKey as string),
      ),
      votes: new Map(
        ranked.map((wallet) => [
          wallet.publicKey as string,
          wallet.attributes.delegate?.voteBalance ?? 0n,
        ]),
      ),
    };
    this.#elected.set(round, elected);
    this.#onElected(elected);
  }

  /** First height of a round (rounds are activeDelegates long between milestone changes). */
  #firstHeightOf(round: number): number {
    let height = 1;
    while (calculateRound(height, this.#milestones).round < round) {
      const info = calculateRound(height, this.#milestones);
      height = info.roundHeight + info.maxDelegates;
    }
    return height;
  }
}
