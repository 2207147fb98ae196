import { sha256 } from '@lni/crypto';
import { changeWallet } from '../dpos/vote-balances.js';
import { closeLock, findLock, reopenLock } from './htlc-locks.js';
import { htlcExpired } from './htlc-lock.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';

const claimOf = (tx: Parameters<TransactionHandler['apply']>[0]) =>
  tx.asset?.claim as { lockTransactionId: string; unlockSecret: string };

export const htlcClaimHandler: TransactionHandler = {
  check(tx, sender, state) {
    if (state.milestone.htlcEnabled !== true) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_DISABLED',
        'type: HTLC is not enabled at this height',
        'type',
      );
    }
    const claim = claimOf(tx);
    const { lock } = findLock(claim.lockTransactionId, state);
    if (htlcExpired(lock.expiration, state)) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_EXPIRATION',
        'asset.claim: the lock has expired; only a refund can release it',
        'asset.claim',
      );
    }
    // ARK 3.0 hashes the hex-decoded secret.
    if (sha256(Buffer.from(claim.unlockSecret, 'hex')).toString('hex') !== lock.secretHash) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_SECRET',
        'asset.claim.unlockSecret: does not hash to the lock secret hash',
        'asset.claim.unlockSecret',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    const { lockTransactionId } = claimOf(tx);
    const { owner, lock } = findLock(lockTransactionId, state);
    applyToSender(tx, state);
    closeLock(state, owner.address, lockTransactionId, lock);
    changeWallet(state.repository, lock.recipientId, (wallet) => ({
      balance: wallet.balance + lock.amount,
    }));
  },
  revert(tx, state) {
    const { lockTransactionId } = claimOf(tx);
    const { lock } = reopenLock(state, lockTransactionId);
    changeWallet(state.repository, lock.recipientId, (wallet) => ({
      balance: wallet.balance - lock.amount,
    }));
    revertForSender(tx, state);
  },
};
