import { type TransactionData } from '@lni/crypto';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, credit, revertForSender } from './sender.js';

const total = (tx: TransactionData) =>
  (tx.asset?.payments ?? []).reduce((sum, p) => sum + p.amount, 0n);

export const multiPaymentHandler: TransactionHandler = {
  check(tx, sender, state) {
    const payments = tx.asset?.payments ?? [];
    const limit = state.milestone.multiPaymentLimit ?? 500;
    if (payments.length < 2 || payments.length > limit) {
      throw new TransactionRuleError(
        'ERR_TX_MULTIPAYMENT_LIMIT',
        `asset.payments: ${payments.length} payments, expected 2 to ${limit}`,
        'asset.payments',
      );
    }
    checkSender(tx, sender, state, total(tx));
  },
  apply(tx, state) {
    applyToSender(tx, state, total(tx));
    for (const payment of tx.asset?.payments ?? [])
      credit(state, payment.recipientId, payment.amount);
  },
  revert(tx, state) {
    for (const payment of [...(tx.asset?.payments ?? [])].reverse())
      credit(state, payment.recipientId, -payment.amount);
    revertForSender(tx, state, total(tx));
  },
};
