/**
 * Why the pool refused a transaction. `reason` is stable and short: 'malformed', 'invalid',
 * 'signature', 'duplicate', 'expired', 'request.tooMany', 'sender.full', 'pool.full', or the
 * rule a handler or the common rules named ('nonce', 'balance', 'fee', 'vote.unknownDelegate').
 */
export interface PoolRejection {
  /** Position in the submitted list. */
  readonly index: number;
  readonly id?: string;
  readonly reason: string;
  readonly message: string;
}

export interface PoolResult {
  /** Ids of the transactions now in the pool. */
  readonly accepted: readonly string[];
  readonly rejected: readonly PoolRejection[];
}

/** A refusal for one of the pool's own reasons, thrown while a transaction is judged. */
export class PoolRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'PoolRefusal';
  }
}
