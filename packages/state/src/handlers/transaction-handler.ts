import type { Milestone, TransactionData } from '@lni/crypto';
import type { Wallet } from '../wallets/wallet.js';
import type { WalletStore } from '../wallets/wallet-store.js';

/** What a handler needs besides the transaction: the state and where in the chain it applies. */
export interface LedgerState {
  readonly repository: WalletStore;
  /** The milestone in force at `height`. */
  readonly milestone: Milestone;
  /** Height of the block the transaction is (or would be) in. */
  readonly height: number;
  /** Timestamp (seconds since the epoch) of that block. */
  readonly timestamp: number;
  readonly pubKeyHash: number;
  /** The pool requires the milestone's static fee; blocks accept any fee, as ARK 3.0 does. */
  readonly enforceStaticFees?: boolean;
  /** Verify signatures against the sender's registrations (off when a worker pool did it). */
  readonly verifySignatures?: boolean;
  /**
   * The HTLC lock transaction of an id and the timestamp of its block, from storage: reverting a
   * claim or refund puts the lock back exactly as the lock transaction made it.
   */
  readonly lockTransaction?: (
    id: string,
  ) => { transaction: TransactionData; timestamp: number } | undefined;
  /** Genesis transactions skip balance, nonce and fee rules (ARK's bypassGenesis). */
  readonly genesis?: boolean;
}

/**
 * The rules of one transaction type. `check` throws a TransactionRuleError naming the broken
 * rule and changes nothing; `apply` assumes `check` passed; `revert` is its exact inverse on
 * balances, nonces and attributes (a public key learnt by apply stays known, as in ARK).
 */
export interface TransactionHandler {
  check(tx: TransactionData, sender: Wallet, state: LedgerState): void;
  apply(tx: TransactionData, state: LedgerState): void;
  revert(tx: TransactionData, state: LedgerState): void;
}
