/**
 * The signal the ledger sends in each block's own database transaction (apply and revert), so
 * that it reaches listeners exactly when the block is committed: `NOTIFY lni_block_committed`
 * with a JSON payload naming the new tip. API nodes LISTEN on it and read the rows by height.
 * A value, not only a type: this module has no imports, so `@lni/state/contracts` stays free of
 * the state plugin at run time.
 */
export const BLOCK_COMMITTED_CHANNEL = 'lni_block_committed';

/** The payload of BLOCK_COMMITTED_CHANNEL: the chain's tip once the transaction commits. */
export interface BlockCommittedPayload {
  readonly height: number;
  readonly id: string;
}
