import type { BlockHeader, Milestones } from '@lni/crypto';
import type { ForgingRound, RoundDelegate } from '@lni/crypto';
import type { ForgingSource } from '../contracts/forging.js';
import type { BlockProcessor } from '../blocks/block-processor.js';
import { blockReward } from '../dpos/block-reward.js';
import type { TransactionPool } from '../pool/transaction-pool.js';
import type { WalletStore } from '../wallets/wallet-store.js';
import { roundForging } from '../rounds/forging-answers.js';
import type { RoundKeeper } from '../rounds/round-keeper.js';

/** The round and the next block's transactions, as a forger asks for them over P2P. */
export class LedgerForgingSource implements ForgingSource {
  constructor(
    private readonly deps: {
      readonly blockProcessor: BlockProcessor;
      readonly roundKeeper: RoundKeeper;
      readonly transactionPool: TransactionPool;
      readonly wallets: WalletStore;
      readonly milestones: Milestones;
      readonly now?: () => number;
    },
  ) {}

  /** The round and slot of now, for the next block (see forging-answers.ts). */
  currentRound(): ForgingRound<BlockHeader> {
    const { blockProcessor, roundKeeper, milestones } = this.deps;
    const last = blockProcessor.lastBlock;
    if (last === undefined) throw new Error('the ledger has no block yet');
    const height = last.height + 1;
    const now = roundKeeper.clock.epochTime(this.deps.now?.() ?? Date.now());
    const { window, canForge } = roundForging(roundKeeper, last, now);
    const elected = roundKeeper.electedFor(height);
    const order = elected?.order ?? [];
    const at = (index: number) => order[index % Math.max(1, order.length)] ?? '';
    return {
      round: elected?.round ?? 0,
      reward: blockReward(milestones, height),
      slotTimestamp: window.start,
      canForge,
      delegates: order.map((publicKey) => this.delegate(publicKey)),
      currentForger: at(window.slot),
      nextForger: at(window.slot + 1),
      lastBlock: last,
    };
  }

  /** The pooled bytes as they are: nothing is serialized again on the way to a block. */
  transactionsForForging(): string[] {
    return this.deps.transactionPool.collect().map((entry) => entry.bytes.toString('hex'));
  }

  poolSize(): number {
    return this.deps.transactionPool.size;
  }

  private delegate(publicKey: string): RoundDelegate {
    const wallet = this.deps.wallets.byPublicKey(publicKey);
    const attributes = wallet?.attributes.delegate;
    return {
      publicKey,
      address: wallet?.address ?? '',
      username: attributes?.username ?? '',
      balance: (wallet?.balance ?? 0n).toString(),
      voteBalance: (attributes?.voteBalance ?? 0n).toString(),
      nonce: (wallet?.nonce ?? 0n).toString(),
      ...(attributes?.rank !== undefined && { rank: attributes.rank }),
    };
  }
}
