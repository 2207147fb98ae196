import { KernelError } from '@lni/kernel';

/** A transaction that breaks a ledger rule; `code` names the rule and `field` the offending part. */
export class TransactionRuleError extends KernelError {
  constructor(
    code: TransactionRuleCode,
    message: string,
    readonly field?: string,
  ) {
    super(code, message);
  }
}

export type TransactionRuleCode =
  | 'ERR_TX_UNSUPPORTED_TYPE'
  | 'ERR_TX_NONCE'
  | 'ERR_TX_INSUFFICIENT_BALANCE'
  | 'ERR_TX_FEE'
  | 'ERR_TX_SECOND_SIGNATURE'
  | 'ERR_TX_MULTISIGNATURE'
  | 'ERR_TX_SIGNATURE'
  | 'ERR_TX_EXPIRED'
  | 'ERR_TX_SECOND_SIGNATURE_ALREADY_REGISTERED'
  | 'ERR_TX_ALREADY_DELEGATE'
  | 'ERR_TX_USERNAME_TAKEN'
  | 'ERR_TX_USERNAME_INVALID'
  | 'ERR_TX_VOTE'
  | 'ERR_TX_MULTISIGNATURE_ALREADY_REGISTERED'
  | 'ERR_TX_IPFS_ALREADY_REGISTERED'
  | 'ERR_TX_MULTIPAYMENT_LIMIT'
  | 'ERR_TX_NOT_A_DELEGATE'
  | 'ERR_TX_DELEGATE_RESIGNED'
  | 'ERR_TX_HTLC_DISABLED'
  | 'ERR_TX_HTLC_EXPIRATION'
  | 'ERR_TX_HTLC_LOCK_NOT_FOUND'
  | 'ERR_TX_HTLC_SECRET'
  | 'ERR_TX_HTLC_NOT_EXPIRED'
  | 'ERR_TX_HTLC_NOT_OWNER';
