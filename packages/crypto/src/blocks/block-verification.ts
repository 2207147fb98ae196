/** The rules verifyBlock checks; each failure names one. */
export type BlockRule =
  | 'header'
  | 'id'
  | 'version'
  | 'reward'
  | 'previousBlock'
  | 'signature'
  | 'numberOfTransactions'
  | 'maxTransactions'
  | 'maxPayload'
  | 'payloadLength'
  | 'payloadHash'
  | 'totalAmount'
  | 'totalFee'
  | 'transactionId'
  | 'transactionSignature'
  | 'duplicateTransaction'
  | 'expiredTransaction';

export interface BlockRuleFailure {
  readonly rule: BlockRule;
  readonly message: string;
  /** Index of the transaction in the block, for the per-transaction rules. */
  readonly transaction?: number;
}

/** Every rule a block failed; `verified` when there are none. */
export interface BlockVerification {
  readonly verified: boolean;
  readonly failures: readonly BlockRuleFailure[];
}
