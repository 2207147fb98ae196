import { OrderedSet } from '@js-sdsl/ordered-set';
import { applyTransaction, ruleOf } from '../blocks/transaction-steps.js';
import { compareEntries, type PoolEntry } from './pool-entry.js';
import type { PoolIndex } from './pool-index.js';
import type { PoolLedger } from './pool-ledger.js';

/** Room kept in maxPayload for the block header and its signature. */
const HEADER_RESERVE = 256;

/**
 * The best entries for the next block: by fee per byte, each sender's in nonce order, within
 * the milestone's maxTransactions and maxPayload, each one applying on state after the ones
 * before it (tried on the wallets, then undone).
 */
export function blockCandidates(index: PoolIndex, ledger: PoolLedger): PoolEntry[] {
  const state = ledger.nextBlock();
  const { maxTransactions, maxPayload } = state.milestone.block;
  const budget = maxPayload - HEADER_RESERVE;
  // Each sender's next entry competes; taking it brings the one after it in.
  const candidates = new OrderedSet<PoolEntry>([], compareEntries);
  const next = new Map<string, number>();
  for (const list of index.senders()) {
    const first = list[0] as PoolEntry;
    candidates.insert(first);
    next.set(first.sender, 1);
  }
  const picked: PoolEntry[] = [];
  let used = 0;
  ledger.trial(() => {
    while (!candidates.empty() && picked.length < maxTransactions) {
      const best = candidates.front() as PoolEntry;
      candidates.eraseElementByKey(best);
      const size = 4 + best.bytes.length;
      // A sender whose next transaction does not fit or apply contributes nothing more.
      if (used + size > budget) continue;
      try {
        applyTransaction(best.tx, best.sender, state);
      } catch (error) {
        if (ruleOf(error) === undefined) throw error;
        continue;
      }
      picked.push(best);
      used += size;
      const list = index.senderEntries(best.sender);
      const position = next.get(best.sender) as number;
      if (position < list.length) {
        candidates.insert(list[position] as PoolEntry);
        next.set(best.sender, position + 1);
      }
    }
  });
  return picked;
}
