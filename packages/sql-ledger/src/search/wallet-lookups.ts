import type { DatabaseConnection } from '@lni/database/contracts';
import { WALLET_TEXT_COLUMNS, type WalletTextRow } from './wallet-views.js';

/**
 * Wallets by id, any number in one statement: each id is an address, then a public key, then a
 * delegate username (the in-memory ledger's precedence), matched by the route indexes.
 */
export const FIND_WALLETS_SQL =
  `SELECT k.id AS lookup_id, w.* FROM unnest($1::text[]) AS k(id) CROSS JOIN LATERAL (` +
  `SELECT ${WALLET_TEXT_COLUMNS} FROM wallets ` +
  'WHERE address = k.id OR public_key = k.id OR delegate_username = k.id ' +
  'ORDER BY CASE WHEN address = k.id THEN 0 WHEN public_key = k.id THEN 1 ELSE 2 END LIMIT 1) w';

/** Statements read at once: the rest wait and go together in the next. */
const IN_FLIGHT = 2;
/** The most ids in one statement. */
const BATCH = 256;

interface Waiter {
  resolve(row: WalletTextRow | undefined): void;
  reject(error: unknown): void;
}

/**
 * Wallet lookups gathered into statements: a lookup is read at once while fewer than IN_FLIGHT
 * statements are out, and the lookups that arrive meanwhile are read together in the next. A
 * round trip costs the api node and PostgreSQL more than the rows it reads, so under load one
 * statement answers many requests, and alone a lookup waits for nothing. No answer is kept:
 * a lookup joins only a statement that has not been sent, so it reads a snapshot taken after
 * it was asked.
 */
export class WalletLookups {
  readonly #database: Pick<DatabaseConnection, 'readStatement'>;
  readonly #timeoutMs: number;
  /** Lookups not sent yet, by id (two requests for one id share its row). */
  #waiting = new Map<string, Waiter[]>();
  #inFlight = 0;

  constructor({
    database,
    timeoutMs,
  }: {
    database: Pick<DatabaseConnection, 'readStatement'>;
    /** The longest one statement of lookups may run. */
    timeoutMs: number;
  }) {
    this.#database = database;
    this.#timeoutMs = timeoutMs;
  }

  /** The row of the wallet `id` names, or undefined if none. */
  find(id: string): Promise<WalletTextRow | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.#waiting.get(id);
      if (waiters === undefined) this.#waiting.set(id, [{ resolve, reject }]);
      else waiters.push({ resolve, reject });
      this.#send();
    });
  }

  #send(): void {
    while (this.#inFlight < IN_FLIGHT && this.#waiting.size > 0) {
      const batch = this.#take();
      this.#inFlight += 1;
      void this.#read(batch).finally(() => {
        this.#inFlight -= 1;
        this.#send();
      });
    }
  }

  /** Up to BATCH of the waiting lookups, the oldest first. */
  #take(): Map<string, Waiter[]> {
    if (this.#waiting.size <= BATCH) {
      const all = this.#waiting;
      this.#waiting = new Map();
      return all;
    }
    const batch = new Map<string, Waiter[]>();
    for (const [id, waiters] of this.#waiting) {
      if (batch.size === BATCH) break;
      batch.set(id, waiters);
      this.#waiting.delete(id);
    }
    return batch;
  }

  async #read(batch: Map<string, Waiter[]>): Promise<void> {
    try {
      const rows = await this.#database.readStatement<WalletTextRow & { lookup_id: string }>(
        this.#timeoutMs,
        FIND_WALLETS_SQL,
        [[...batch.keys()]],
      );
      const found = new Map(rows.map((row) => [row.lookup_id, row]));
      for (const [id, waiters] of batch) {
        for (const waiter of waiters) waiter.resolve(found.get(id));
      }
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }
}
