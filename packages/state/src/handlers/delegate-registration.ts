import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';

/** ARK's delegate names: 1-20 of lower-case letters, digits and !@$&_. */
const USERNAME = /^[a-z0-9!@$&_.]{1,20}$/;

export const delegateRegistrationHandler: TransactionHandler = {
  check(tx, sender, state) {
    const username = tx.asset?.delegate?.username;
    if (typeof username !== 'string' || !USERNAME.test(username)) {
      throw new TransactionRuleError(
        'ERR_TX_USERNAME_INVALID',
        `asset.delegate.username: '${String(username).slice(0, 40)}' is not 1-20 of a-z 0-9 ! @ $ & _ .`,
        'asset.delegate.username',
      );
    }
    if (sender.attributes.delegate !== undefined) {
      throw new TransactionRuleError(
        'ERR_TX_ALREADY_DELEGATE',
        `asset.delegate: the sender is already delegate '${sender.attributes.delegate.username}'`,
        'asset.delegate',
      );
    }
    if (state.repository.byUsername(username) !== undefined) {
      throw new TransactionRuleError(
        'ERR_TX_USERNAME_TAKEN',
        `asset.delegate.username: '${username}' is taken`,
        'asset.delegate.username',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    applyToSender(tx, state, tx.amount, () => ({
      delegate: {
        username: tx.asset?.delegate?.username as string,
        voteBalance: 0n,
        forgedFees: 0n,
        forgedRewards: 0n,
        producedBlocks: 0,
      },
    }));
  },
  revert(tx, state) {
    revertForSender(tx, state, tx.amount, () => ({ delegate: undefined }));
  },
};
