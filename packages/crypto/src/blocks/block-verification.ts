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

/**
 * Rules a block breaks only when whoever made or sent it forged or altered it. The others
 * (`previousBlock`, `expiredTransaction`) can be honest races or forks.
 */
const FORGERY_RULES: ReadonlySet<BlockRule> = new Set<BlockRule>([
  'header',
  'id',
  'version',
  'reward',
  'signature',
  'numberOfTransactions',
  'maxTransactions',
  'maxPayload',
  'payloadLength',
  'payloadHash',
  'totalAmount',
  'totalFee',
  'transactionId',
  'transactionSignature',
  'duplicateTransaction',
]);

/** Whether breaking `rule` shows the block forged or altered, so its sender misbehaved. */
export function breakingShowsForgery(rule: BlockRule): boolean {
  return FORGERY_RULES.has(rule);
}

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
