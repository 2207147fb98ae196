import Joi from 'joi';

export interface SqlLedgerOptions {
  /** The longest the head may go unread: it is read at least this often, and when woken. */
  readonly pollMs: number;
  /** The longest a wallet lookup by address, public key or username may run. */
  readonly lookupTimeoutMs: number;
  /** Applied blocks kept in memory, so that a revert on the writer can be announced with them. */
  readonly revertWindow: number;
}

export const sqlLedgerConfigSchema = Joi.object<SqlLedgerOptions>({
  pollMs: Joi.number().integer().min(10).max(60_000).default(1_000),
  lookupTimeoutMs: Joi.number().integer().min(1).max(60_000).default(2_000),
  revertWindow: Joi.number().integer().min(1).max(10_000).default(256),
});
