import {
  addressFromPublicKey,
  transactionTypeHandler,
  verifyTransactionSignatures,
  type TransactionData,
} from '@lni/crypto';
import { changeWallet } from '../dpos/vote-balances.js';
import { signerRegistrations } from '../wallets/signer-registrations.js';
import type { Wallet, WalletAttributes } from '../wallets/wallet.js';
import type { WalletChange } from '../wallets/wallet-change.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { LedgerState } from './transaction-handler.js';

export const senderAddress = (tx: TransactionData, state: LedgerState): string =>
  addressFromPublicKey(tx.senderPublicKey, state.pubKeyHash);

/** The sender's wallet as the transaction sees it (empty for a key never seen). */
export const senderOf = (tx: TransactionData, state: LedgerState): Wallet =>
  state.repository.getOrEmpty(senderAddress(tx, state));

/** What every transaction must satisfy: nonce, funds for amount plus fee, fee, signatures. */
export function checkSender(
  tx: TransactionData,
  sender: Wallet,
  state: LedgerState,
  spent: bigint = tx.amount,
): void {
  const { attributes } = sender;
  if (attributes.secondPublicKey !== undefined && tx.secondSignature === undefined) {
    throw new TransactionRuleError(
      'ERR_TX_SECOND_SIGNATURE',
      'secondSignature: the sender registered a second public key, the transaction lacks the second signature',
      'secondSignature',
    );
  }
  if (attributes.secondPublicKey === undefined && tx.secondSignature !== undefined) {
    throw new TransactionRuleError(
      'ERR_TX_SECOND_SIGNATURE',
      'secondSignature: the sender has no second public key',
      'secondSignature',
    );
  }
  if (attributes.multiSignature !== undefined && tx.signatures === undefined) {
    throw new TransactionRuleError(
      'ERR_TX_MULTISIGNATURE',
      'signatures: the sender is a multisignature wallet, the transaction lacks participant signatures',
      'signatures',
    );
  }
  if (state.verifySignatures) {
    if (!verifyTransactionSignatures(tx, signerRegistrations(sender))) {
      throw new TransactionRuleError(
        'ERR_TX_SIGNATURE',
        'signature: does not verify for the sender',
        'signature',
      );
    }
  }
  if (state.genesis) return;
  if (tx.version === 2 && tx.nonce !== sender.nonce + 1n) {
    throw new TransactionRuleError(
      'ERR_TX_NONCE',
      `nonce: expected ${sender.nonce + 1n}, got ${tx.nonce}`,
      'nonce',
    );
  }
  if (sender.balance - spent - tx.fee < 0n) {
    throw new TransactionRuleError(
      'ERR_TX_INSUFFICIENT_BALANCE',
      `amount: the sender holds ${sender.balance}, the transaction spends ${spent + tx.fee}`,
      'amount',
    );
  }
  if (state.enforceStaticFees) {
    const fee = staticFee(tx, state);
    if (tx.fee !== fee) {
      throw new TransactionRuleError(
        'ERR_TX_FEE',
        `fee: expected the static fee ${fee}, got ${tx.fee}`,
        'fee',
      );
    }
  }
}

/**
 * The milestone's static fee under the type's fee key, times the type's multiplier (a
 * multisignature registration pays it once per key plus one); 0 when the milestone names none.
 */
export function staticFee(tx: TransactionData, state: LedgerState): bigint {
  const row = transactionTypeHandler(tx.typeGroup, tx.type);
  if (row === undefined) return 0n;
  const base = BigInt(state.milestone.fees.staticFees[row.feeKey] ?? 0);
  return base * (row.feeMultiplier?.(tx) ?? 1n);
}

/**
 * Charges the sender amount plus fee, moves its nonce and applies the type's own change. A
 * version-2 transaction carries the nonce it takes; a version-1 transaction carries none but
 * still counts, so it advances the nonce by one (ARK 2.7 and 3.x): after ARK's testnet genesis,
 * where each delegate sent two v1 transactions, its first v2 transaction carries nonce 3.
 */
export function applyToSender(
  tx: TransactionData,
  state: LedgerState,
  spent: bigint = tx.amount,
  attributes?: (wallet: Wallet) => WalletChange['attributes'],
): Wallet {
  return changeWallet(state.repository, senderAddress(tx, state), (wallet) => ({
    ...(wallet.publicKey === undefined ? { publicKey: tx.senderPublicKey } : {}),
    balance: wallet.balance - spent - tx.fee,
    nonce: tx.version === 1 ? wallet.nonce + 1n : tx.nonce,
    ...(attributes ? { attributes: attributes(wallet) } : {}),
  }));
}

/** The inverse of applyToSender: every version takes the nonce back by one. */
export function revertForSender(
  tx: TransactionData,
  state: LedgerState,
  spent: bigint = tx.amount,
  attributes?: (wallet: Wallet) => WalletChange['attributes'],
): Wallet {
  return changeWallet(state.repository, senderAddress(tx, state), (wallet) => ({
    balance: wallet.balance + spent + tx.fee,
    nonce: wallet.nonce - 1n,
    ...(attributes ? { attributes: attributes(wallet) } : {}),
  }));
}

export function credit(state: LedgerState, address: string, amount: bigint): void {
  changeWallet(state.repository, address, (wallet) => ({ balance: wallet.balance + amount }));
}

export type AttributeChange = {
  -readonly [K in keyof WalletAttributes]?: WalletAttributes[K] | undefined;
};
