import { changeWallet } from '../dpos/vote-balances.js';
import type { HtlcAttributes, HtlcLock, Wallet } from '../wallets/wallet.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { LedgerState } from './transaction-handler.js';
import { lockOf } from './htlc-lock.js';

export interface FoundLock {
  readonly owner: Wallet;
  readonly lock: HtlcLock;
}

/** The open lock of an id: searched among the wallets that hold locks (their own index). */
export function findLock(lockId: string, state: LedgerState): FoundLock {
  for (const owner of state.repository
    .index('attributes.htlc.lockedBalance')
    .scan(undefined, undefined, false)) {
    const lock = owner.attributes.htlc?.locks[lockId];
    if (lock) return { owner, lock };
  }
  throw new TransactionRuleError(
    'ERR_TX_HTLC_LOCK_NOT_FOUND',
    `asset.lockTransactionId: no open lock ${lockId}`,
    'asset.lockTransactionId',
  );
}

/** Closes a lock: its amount leaves the owner's locked balance (and so its vote weight). */
export function closeLock(
  state: LedgerState,
  owner: string,
  lockId: string,
  lock: HtlcLock,
  credit = 0n,
): void {
  changeWallet(state.repository, owner, (wallet) => {
    const htlc = wallet.attributes.htlc as HtlcAttributes;
    const { [lockId]: _closed, ...locks } = htlc.locks;
    return {
      balance: wallet.balance + credit,
      attributes: {
        htlc:
          Object.keys(locks).length > 0
            ? { locks, lockedBalance: htlc.lockedBalance - lock.amount }
            : undefined,
      },
    };
  });
}

/** Re-opens a lock closed by a claim or refund, rebuilt from its lock transaction. */
export function reopenLock(
  state: LedgerState,
  lockId: string,
  debit = 0n,
): { owner: string; lock: HtlcLock } {
  const found = state.lockTransaction?.(lockId);
  if (!found) {
    throw new TransactionRuleError(
      'ERR_TX_HTLC_LOCK_NOT_FOUND',
      `asset.lockTransactionId: lock transaction ${lockId} is not in storage`,
      'asset.lockTransactionId',
    );
  }
  const lock = lockOf(found.transaction, { ...state, timestamp: found.timestamp });
  const owner = state.repository.byPublicKey(found.transaction.senderPublicKey) as Wallet;
  changeWallet(state.repository, owner.address, (wallet) => {
    const htlc: HtlcAttributes = wallet.attributes.htlc ?? { locks: {}, lockedBalance: 0n };
    return {
      balance: wallet.balance - debit,
      attributes: {
        htlc: {
          locks: { ...htlc.locks, [lockId]: lock },
          lockedBalance: htlc.lockedBalance + lock.amount,
        },
      },
    };
  });
  return { owner: owner.address, lock };
}
