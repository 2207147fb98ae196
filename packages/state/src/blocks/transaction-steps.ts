import type { TransactionData } from '@lni/crypto';
import { handlerFor } from '../handlers/registry.js';
import type { LedgerState } from '../handlers/transaction-handler.js';
import { TransactionRuleError } from '../handlers/transaction-rule-error.js';

/**
 * Judges a transaction on state through its type's handler; throws TransactionRuleError.
 * `sender` is the address of tx.senderPublicKey, which callers already derived.
 */
export function checkTransaction(tx: TransactionData, sender: string, state: LedgerState): void {
  handlerFor(tx).check(tx, state.repository.getOrEmpty(sender), state);
}

/** Checks, then applies. Not atomic by itself: callers hold a wallet checkpoint. */
export function applyTransaction(tx: TransactionData, sender: string, state: LedgerState): void {
  const handler = handlerFor(tx);
  handler.check(tx, state.repository.getOrEmpty(sender), state);
  handler.apply(tx, state);
}

export function revertTransaction(tx: TransactionData, state: LedgerState): void {
  handlerFor(tx).revert(tx, state);
}

/** The rule a refused transaction broke, as blocks and the pool report it. */
export function ruleOf(error: unknown): string | undefined {
  return error instanceof TransactionRuleError ? error.code : undefined;
}
