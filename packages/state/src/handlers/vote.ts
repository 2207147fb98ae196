import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';

const voteError = (message: string) =>
  new TransactionRuleError('ERR_TX_VOTE', `asset.votes: ${message}`, 'asset.votes');

/** The vote a wallet holds after the transaction's votes, in order ('-old' then '+new'). */
function voteAfter(votes: readonly string[], current: string | undefined): string | undefined {
  let vote = current;
  for (const entry of votes) vote = entry.startsWith('+') ? entry.slice(1) : undefined;
  return vote;
}

export const voteHandler: TransactionHandler = {
  check(tx, sender, state) {
    const votes = tx.asset?.votes ?? [];
    let vote = sender.attributes.vote;
    for (const entry of votes) {
      const key = entry.slice(1);
      if (entry.startsWith('+')) {
        if (vote !== undefined) throw voteError(`the sender already votes for ${vote}`);
        const delegate = state.repository.byPublicKey(key)?.attributes.delegate;
        if (!delegate) throw voteError(`${key} is not a registered delegate`);
        if (delegate.resigned === true)
          throw voteError(`delegate '${delegate.username}' has resigned`);
        vote = key;
      } else {
        if (vote === undefined) throw voteError('the sender has no vote to withdraw');
        if (vote !== key) throw voteError(`the sender votes for ${vote}, not ${key}`);
        vote = undefined;
      }
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    applyToSender(tx, state, tx.amount, (wallet) => ({
      vote: voteAfter(tx.asset?.votes ?? [], wallet.attributes.vote),
    }));
  },
  revert(tx, state) {
    // The vote before: undo the votes from the last one back.
    const votes = tx.asset?.votes ?? [];
    const inverse = [...votes]
      .reverse()
      .map((entry) => (entry.startsWith('+') ? `-${entry.slice(1)}` : `+${entry.slice(1)}`));
    revertForSender(tx, state, tx.amount, (wallet) => ({
      vote: voteAfter(inverse, wallet.attributes.vote),
    }));
  },
};
