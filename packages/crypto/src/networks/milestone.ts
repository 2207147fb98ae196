/** Block limits of a milestone. */
export interface BlockMilestone {
  readonly version: number;
  readonly maxTransactions: number;
  readonly maxPayload: number;
  /** From this milestone on, block ids are the full sha256 hex instead of the short decimal. */
  readonly idFullSha256?: boolean;
  readonly acceptExpiredTransactionTimestamps?: boolean;
  readonly [key: string]: unknown;
}

/**
 * The rules in force from `height` on: one entry of `crypto/milestones.json` deep-merged over
 * the earlier ones. Amounts (reward, fees) are in arktoshi, as JSON numbers like ARK's files.
 */
export interface Milestone {
  readonly height: number;
  readonly activeDelegates: number;
  /** Seconds between slots. */
  readonly blocktime: number;
  readonly reward: number;
  readonly block: BlockMilestone;
  /** ISO date of the network's slot 0. */
  readonly epoch: string;
  readonly fees: { readonly staticFees: Readonly<Record<string, number>> };
  readonly vendorFieldLength: number;
  readonly multiPaymentLimit?: number;
  /** Version-2 transactions (AIP-11) accepted. */
  readonly aip11?: boolean;
  readonly htlcEnabled?: boolean;
  readonly [key: string]: unknown;
}

/** One raw entry of `crypto/milestones.json`: a height and the keys that change there. */
export type MilestoneEntry = { readonly height: number } & { readonly [key: string]: unknown };
