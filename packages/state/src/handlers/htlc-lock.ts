import { HtlcLockExpirationType, type TransactionData } from '@lni/crypto';
import type { HtlcAttributes, HtlcLock } from '../wallets/wallet.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { LedgerState, TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';

/** True when an HTLC expiration has been reached at this block. */
export function htlcExpired(expiration: HtlcLock['expiration'], state: LedgerState): boolean {
  return expiration.type === HtlcLockExpirationType.EpochTimestamp
    ? expiration.value <= state.timestamp
    : expiration.value <= state.height;
}

/** The lock a lock transaction opens in a block of `state.timestamp`. */
export const lockOf = (tx: TransactionData, state: LedgerState): HtlcLock => {
  const lock = tx.asset?.lock as NonNullable<NonNullable<TransactionData['asset']>['lock']>;
  return {
    amount: tx.amount,
    recipientId: tx.recipientId as string,
    secretHash: lock.secretHash,
    expiration: { type: lock.expiration.type as 1 | 2, value: lock.expiration.value },
    timestamp: state.timestamp,
    ...(tx.vendorField !== undefined ? { vendorField: tx.vendorField } : {}),
  };
};

export const htlcLockHandler: TransactionHandler = {
  check(tx, sender, state) {
    if (state.milestone.htlcEnabled !== true) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_DISABLED',
        'type: HTLC is not enabled at this height',
        'type',
      );
    }
    const lock = lockOf(tx, state);
    if (htlcExpired(lock.expiration, state)) {
      throw new TransactionRuleError(
        'ERR_TX_HTLC_EXPIRATION',
        `asset.lock.expiration: ${lock.expiration.value} has already passed`,
        'asset.lock.expiration',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    // The locked amount leaves the balance but stays in the sender's vote weight.
    applyToSender(tx, state, tx.amount, (wallet) => {
      const htlc: HtlcAttributes = wallet.attributes.htlc ?? { locks: {}, lockedBalance: 0n };
      return {
        htlc: {
          locks: { ...htlc.locks, [tx.id as string]: lockOf(tx, state) },
          lockedBalance: htlc.lockedBalance + tx.amount,
        },
      };
    });
  },
  revert(tx, state) {
    revertForSender(tx, state, tx.amount, (wallet) => {
      const htlc = wallet.attributes.htlc as HtlcAttributes;
      const { [tx.id as string]: _lock, ...locks } = htlc.locks;
      return {
        htlc:
          Object.keys(locks).length > 0
            ? { locks, lockedBalance: htlc.lockedBalance - tx.amount }
            : undefined,
      };
    });
  },
};
