export type { PoolRejection, PoolResult } from '../contracts/pool.js';

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
