import { calculateRound, SlotClock, type ForgingWindow, type Milestones } from '@lni/crypto';
import type { BlockHook } from '../blocks/block-hook.js';
import type { FullBlock } from '../blocks/block-store.js';
import type { ForgingSchedule } from '../blocks/forging-schedule.js';
import { delegatesByVotes } from '../dpos/delegate-ranking.js';
import { forgingOrder } from '../dpos/forging-order.js';
import type { ElectedRound, ElectionLog } from './election-log.js';
import { isActiveDelegate } from '../wallets/wallet.js';
import type { WalletStore } from '../wallets/wallet-store.js';

interface Election extends ElectedRound {
  /**
   * `attributes.delegate.round` of the elected delegates that were not active in the round
   * before (undefined: never active), put back when the election is reverted.
   */
  readonly returning: ReadonlyMap<string, number | undefined>;
}

/**
 * Elects the active delegates of each round and answers who forges which slot. A round's
 * delegates are the top `activeDelegates` non-resigned delegates by votes once the round before
 * it (or the genesis block) is applied, shuffled into ARK 3.0's forging order; each gets the
 * round in `attributes.delegate.round`, as ARK 3.x sets it. Elections are remembered so that
 * reverting into an earlier round finds its delegates again.
 */
export class RoundKeeper implements BlockHook, ForgingSchedule, ElectionLog {
  readonly clock: SlotClock;
  readonly #wallets: WalletStore;
  readonly #milestones: Milestones;
  readonly #elected = new Map<number, Election>();
  /** Timestamps of the blocks the slot arithmetic asks for (blocktime milestone spans). */
  readonly #timestamps = new Map<number, number>();

  constructor(deps: { wallets: WalletStore; milestones: Milestones }) {
    this.#wallets = deps.wallets;
    this.#milestones = deps.milestones;
    this.clock = new SlotClock(deps.milestones);
  }

  applied(block: FullBlock): void {
    this.#timestamps.set(block.height, block.timestamp);
    if (this.#elects(block.height)) this.#elect(this.latestRoundAt(block.height));
  }

  /**
   * Starts from stored elections and block timestamps (a load of the wallet table instead of a
   * replay): `rounds` oldest first, each's delegates in vote order (compareByVotes), as they
   * were chosen. What reverting an election puts back (`returning`) is the last round before it
   * that elected the delegate, exactly what `attributes.delegate.round` held before it.
   */
  restore(
    rounds: Iterable<Omit<ElectedRound, 'order'> & { readonly byVotes: readonly string[] }>,
    timestamps: Iterable<readonly [height: number, timestamp: number]>,
  ): void {
    this.#elected.clear();
    this.#timestamps.clear();
    for (const [height, timestamp] of timestamps) this.#timestamps.set(height, timestamp);
    const lastElected = new Map<string, number>();
    for (const { round, byVotes, votes } of rounds) {
      const returning = new Map<string, number | undefined>();
      for (const publicKey of byVotes) {
        const last = lastElected.get(publicKey);
        if (last !== round - 1) returning.set(publicKey, last);
        lastElected.set(publicKey, round);
      }
      this.#elected.set(round, { round, order: forgingOrder(round, byVotes), votes, returning });
    }
  }

  reverted(block: FullBlock): void {
    this.#timestamps.delete(block.height);
    if (this.#elects(block.height)) this.#unelect(this.latestRoundAt(block.height));
  }

  /** The round a height belongs to, with its delegates; undefined before its election. */
  electedFor(height: number): ElectedRound | undefined {
    return this.#elected.get(calculateRound(height, this.#milestones).round);
  }

  electedBy(height: number): ElectedRound | undefined {
    return this.#elects(height) ? this.#elected.get(this.latestRoundAt(height)) : undefined;
  }

  latestRoundAt(height: number): number {
    return calculateRound(height + 1, this.#milestones).round;
  }

  /** Every election held, oldest first. */
  elections(): IterableIterator<ElectedRound> {
    return this.#elected.values();
  }

  /** The timestamp of the block applied at `height`; undefined when none is (yet). */
  timestampAt(height: number): number | undefined {
    return this.#timestamps.get(height);
  }

  slotOf(timestamp: number, height: number): number {
    return this.clock.slotOf(this.#lookup, timestamp, height);
  }

  /** Epoch seconds at which a slot begins, for a block at `height`. */
  slotTime(slot: number, height: number): number {
    return this.clock.slotTime(this.#lookup, slot, height);
  }

  /** The forging window of the slot `timestamp` falls in, for a block at `height`. */
  forgingWindowAt(timestamp: number, height: number): ForgingWindow {
    return this.clock.forgingWindow(this.#lookup, this.slotOf(timestamp, height), height);
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

  /** The genesis block and the last block of each round elect the next round. */
  #elects(height: number): boolean {
    return (
      height === 1 || this.latestRoundAt(height) !== calculateRound(height, this.#milestones).round
    );
  }

  #elect(round: number): void {
    const active = this.#milestones.at(this.#firstHeightOf(round)).activeDelegates;
    const chosen = delegatesByVotes(this.#wallets).filter(isActiveDelegate).slice(0, active);
    const returning = new Map<string, number | undefined>();
    for (const wallet of chosen) {
      const delegate = wallet.attributes.delegate;
      if (!delegate) continue;
      if (delegate.round !== round - 1) returning.set(wallet.publicKey as string, delegate.round);
      this.#wallets.update(wallet.address, { attributes: { delegate: { ...delegate, round } } });
    }
    this.#elected.set(round, {
      round,
      order: forgingOrder(
        round,
        chosen.map((wallet) => wallet.publicKey as string),
      ),
      votes: new Map(
        chosen.map((wallet) => [
          wallet.publicKey as string,
          wallet.attributes.delegate?.voteBalance ?? 0n,
        ]),
      ),
      returning,
    });
  }

  #unelect(round: number): void {
    const election = this.#elected.get(round);
    if (!election) return;
    this.#elected.delete(round);
    for (const publicKey of election.order) {
      const wallet = this.#wallets.byPublicKey(publicKey);
      const delegate = wallet?.attributes.delegate;
      if (!wallet || !delegate) continue;
      const previous = election.returning.has(publicKey)
        ? election.returning.get(publicKey)
        : round - 1;
      const { round: _reverted, ...rest } = delegate;
      this.#wallets.update(wallet.address, {
        attributes: { delegate: previous === undefined ? rest : { ...rest, round: previous } },
      });
    }
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
