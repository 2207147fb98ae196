import type { DelegateAttributes } from '../wallets/wallet.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';

export const delegateResignationHandler: TransactionHandler = {
  check(tx, sender, state) {
    const delegate = sender.attributes.delegate;
    if (!delegate) {
      throw new TransactionRuleError(
        'ERR_TX_NOT_A_DELEGATE',
        'senderPublicKey: only a delegate can resign',
        'senderPublicKey',
      );
    }
    if (delegate.resigned === true) {
      throw new TransactionRuleError(
        'ERR_TX_DELEGATE_RESIGNED',
        `senderPublicKey: delegate '${delegate.username}' has already resigned`,
        'senderPublicKey',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    applyToSender(tx, state, tx.amount, (wallet) => ({
      delegate: { ...(wallet.attributes.delegate as DelegateAttributes), resigned: true },
    }));
  },
  revert(tx, state) {
    revertForSender(tx, state, tx.amount, (wallet) => {
      const { resigned: _resigned, ...delegate } = wallet.attributes.delegate as DelegateAttributes;
      return { delegate };
    });
  },
};
