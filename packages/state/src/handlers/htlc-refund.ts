import { closeLock, findLock, reopenLock } from './htlc-locks.js';
import { htlcExpired } from './htlc-lock.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender, senderAddress } from './sender.js';

const lockIdOf = (tx: Parameters<TransactionHandler['apply']>[0]) =>
  (tx.asset?.refund as { lockTransactionId: string }).lockTransactionId;

export const htlcRefundHandler: TransactionHandler = {
  check(tx, sender, state) {
    if (state.milestone.htlcEnabled !== true) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_DISABLED',
        'type: HTLC is not enabled at this height',
        'type',
      );
    }
    const { owner, lock } = findLock(lockIdOf(tx), state);
    if (owner.address !== senderAddress(tx, state)) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_NOT_OWNER',
        'senderPublicKey: only the wallet that locked can refund',
        'senderPublicKey',
      );
    }
    if (!htlcExpired(lock.expiration, state)) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_NOT_EXPIRED',
        `asset.refund: the lock expires at ${lock.expiration.value}`,
        'asset.refund',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    const lockId = lockIdOf(tx);
    const { owner, lock } = findLock(lockId, state);
    applyToSender(tx, state);
    closeLock(state, owner.address, lockId, lock, lock.amount);
  },
  revert(tx, state) {
    const lockId = lockIdOf(tx);
    const found = state.lockTransaction?.(lockId);
    reopenLock(state, lockId, found?.transaction.amount ?? 0n);
    revertForSender(tx, state);
  },
};
