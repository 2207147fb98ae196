import type { Logger } from '@lni/kernel';
import type { ChainListener } from '../blocks/chain-listener.js';
import type { FullBlock } from '../blocks/block-store.js';
import { applyTransaction, ruleOf } from '../blocks/transaction-steps.js';
import type { PoolAdmission } from './pool-admission.js';
import type { PoolAnnouncer } from './pool-announcer.js';
import type { PoolEntry } from './pool-entry.js';
import type { PoolIndex } from './pool-index.js';
import type { PoolKeeper } from './pool-keeper.js';
import { checkNotExpired, type PoolLedger } from './pool-ledger.js';
import { PoolRefusal } from './pool-rejection.js';
import type { SignatureVerdict } from './pool-signatures.js';

export interface PoolReconciliationDeps {
  readonly index: PoolIndex;
  readonly admission: PoolAdmission;
  readonly ledger: PoolLedger;
  readonly keeper: PoolKeeper;
  readonly announcer: PoolAnnouncer;
  readonly logger: Logger;
  /** Seconds a transaction may wait before it is dropped. */
  readonly maxAgeSeconds: number;
}

/** Keeps the pool in step with the chain: what blocks include or invalidate goes, reverted comes back. */
export class PoolReconciliation implements ChainListener {
  readonly #deps: PoolReconciliationDeps;

  constructor(deps: PoolReconciliationDeps) {
    this.#deps = deps;
  }

  /** Drops what the block included, then whatever no longer applies or is too old. */
  blockApplied(block: FullBlock): void {
    const { index } = this.#deps;
    for (const tx of block.transactions ?? []) {
      const entry = tx.id === undefined ? undefined : index.get(tx.id);
      if (entry) index.remove(entry, 'confirmed');
    }
    this.revalidate();
  }

  /**
   * The reverted blocks' transactions come back ahead of what was waiting, since they carry
   * each sender's lower nonces, and everything is judged again in that order (waiting ones keep
   * their arrival time and signature verdict; returning ones were verified by the block that
   * carried them). The pool's memory is settled before the first await; storage is rewritten in
   * the new order in one commit, so a restart replays each sender's nonces ascending; then the
   * returned ones are announced.
   */
  async blocksReverted(blocks: readonly FullBlock[]): Promise<void> {
    const { index, admission, ledger, keeper, announcer, logger } = this.#deps;
    const returning = blocks.flatMap((block) => block.transactions ?? []);
    const waiting = [...index.entries()];
    for (const entry of waiting) index.remove(entry, 'dropped');
    const now = ledger.now();
    const transactions = [...returning, ...waiting.map((entry) => entry.tx)];
    const arrivals = [...returning.map(() => now), ...waiting.map((entry) => entry.addedAt)];
    const verdicts: SignatureVerdict[] = [
      ...returning.map((): SignatureVerdict => 'trusted'),
      ...waiting.map((entry) => entry.verifiedUnder ?? 'trusted'),
    ];
    const judged = admission.admitAll(transactions, (i) => arrivals[i] as number, verdicts);
    const kept = keeper.rewrite(judged.admitted.map(({ entry }) => entry));
    this.revalidate();
    const lost = judged.rejected.filter((refusal) => refusal.index >= returning.length).length;
    if (lost > 0) logger.info({ dropped: lost }, 'Pool transactions dropped after a revert');
    await kept;
    announcer.added(
      judged.admitted.filter((item) => item.index < returning.length).map((item) => item.entry),
      'restored',
    );
  }

  /**
   * Re-judges every sender's sequence on current state and drops, per sender, the first
   * transaction that no longer applies (or is too old) and everything after it.
   */
  revalidate(): number {
    const { index, ledger, keeper, announcer, logger, maxAgeSeconds } = this.#deps;
    const state = ledger.nextBlock();
    const oldest = ledger.now() - maxAgeSeconds * 1000;
    const dropped: PoolEntry[] = [];
    ledger.trial(() => {
      for (const list of index.senders()) {
        const broken = list.findIndex((entry) => !appliesStill(entry));
        if (broken >= 0) dropped.push(...list.slice(broken));
      }
    });
    for (const entry of dropped) index.remove(entry, 'dropped');
    keeper.forgetRemoved();
    announcer.settle((id) => index.has(id));
    if (dropped.length > 0) logger.info({ dropped: dropped.length }, 'Pool transactions dropped');
    return dropped.length;

    function appliesStill(entry: PoolEntry): boolean {
      try {
        if (entry.addedAt < oldest) throw new PoolRefusal('expired', 'too old');
        checkNotExpired(entry.tx, state.height);
        applyTransaction(entry.tx, entry.sender, state);
        return true;
      } catch (error) {
        if (!(error instanceof PoolRefusal) && ruleOf(error) === undefined) throw error;
        return false;
      }
    }
  }

  /**
   * Entries storage did not take leave the pool again, unannounced, with whatever was admitted
   * on top of them.
   */
  undo(entries: readonly PoolEntry[]): void {
    const { index, announcer } = this.#deps;
    for (const entry of entries) {
      if (index.get(entry.id) === entry) index.remove(entry, 'dropped');
      announcer.neverAnnounced(entry.id);
    }
    this.revalidate();
  }
}
