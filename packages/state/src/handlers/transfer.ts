import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, credit, revertForSender } from './sender.js';

export const transferHandler: TransactionHandler = {
  check(tx, sender, state) {
    // ARK 3.0: a transfer expires after the height it names (0 = never).
    if (tx.expiration !== undefined && tx.expiration > 0 && tx.expiration <= state.height) {
      throw new TransactionRuleError(
        'ERR_TX_EXPIRED',
        `expiration: height ${tx.expiration} has passed (block ${state.height})`,
        'expiration',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    applyToSender(tx, state);
    credit(state, tx.recipientId as string, tx.amount);
  },
  revert(tx, state) {
    credit(state, tx.recipientId as string, -tx.amount);
    revertForSender(tx, state);
  },
};
