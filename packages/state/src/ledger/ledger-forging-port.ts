import { serializeTransaction, type Milestones } from '@lni/crypto';
import type { BlockProcessor } from '../blocks/block-processor.js';
import { blockReward } from '../dpos/block-reward.js';
import type { TransactionPool } from '../pool/transaction-pool.js';
import type { RoundKeeper } from './round-keeper.js';

/** The round and the next block's transactions, as a forger asks for them over P2P. */
export class LedgerForgingPort {
  constructor(
    private readonly deps: {
      readonly blockProcessor: BlockProcessor;
      readonly roundKeeper: RoundKeeper;
      readonly transactionPool: TransactionPool;
      readonly milestones: Milestones;
      readonly now?: () => number;
    },
  ) {}

  currentRound() {
    const { blockProcessor, roundKeeper, milestones } = this.deps;
    const last = blockProcessor.lastBlock;
    if (last === undefined) throw new Error('the ledger has no block yet');
    const height = last.height + 1;
    const nowMs = this.deps.now?.() ?? Date.now();
    const slots = roundKeeper.slots;
    const timestamp = slots.getTime(nowMs);
    const slot = roundKeeper.slotOf(timestamp, height);
    const slotTimestamp = roundKeeper.slotTime(slot, height);
    const blocktime = milestones.at(height).blocktime;
    const elected = roundKeeper.electedFor(height);
    const order = elected?.order ?? [];
    const at = (index: number) => order[index % Math.max(1, order.length)] ?? '';
    return {
      round: elected?.round ?? 0,
      reward: blockReward(milestones, height),
      slotTimestamp,
      // The first half of a slot, and only when the slot has no block yet.
      canForge:
        timestamp < slotTimestamp + Math.floor(blocktime / 2) && last.timestamp < slotTimestamp,
      currentForger: at(slot),
      nextForger: at(slot + 1),
      lastBlock: { id: last.id, height: last.height },
      msUntilNextSlot: Math.max(0, slots.toUnixMs(slotTimestamp + blocktime) - nowMs),
    };
  }

  transactionsForForging(): string[] {
    return this.deps.transactionPool
      .collect()
      .map((transaction) => serializeTransaction(transaction).toString('hex'));
  }
}
