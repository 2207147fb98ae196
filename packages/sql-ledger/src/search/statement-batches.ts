import type { DatabaseConnection, StatementOptions } from '@lni/database/contracts';
import { availableParallelism } from 'node:os';

/**
 * The most statements read as one: a batch runs its statements one after another in one
 * backend, and fails as a whole past its time limit.
 */
const BATCH = 64;

/** The column that says which statement of a batch a row answers (1-based). */
const BATCH_INDEX = 'batch_index';

interface Waiting {
  readonly values: readonly unknown[];
  readonly timeoutMs: number;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

interface Lane {
  waiting: Waiting[];
  inFlight: number;
}

/**
 * Runs statements of one text (a wallet lookup, a page of a route) together: a statement is
 * sent at once while fewer than `inFlight` of its text are out, and those asked meanwhile are
 * then read as one (batchedStatement), each with its own values. A round trip costs the api
 * node and PostgreSQL more than a lookup's or a page's rows, so under load one round trip
 * answers many requests, and alone a request waits for nothing. Each statement is still run:
 * none is answered from another's rows, and none joins a batch already sent, so its answer is
 * read after it was asked, as if it ran alone. Only for statements whose plan does not depend
 * on their values (the values become columns of the batch, unknown to the planner) and whose
 * values are scalars (they travel as text in one array).
 */
export class StatementBatches {
  readonly #database: Pick<DatabaseConnection, 'readStatement'>;
  readonly #inFlight: number;
  readonly #lanes = new Map<string, Lane>();

  constructor({
    database,
    inFlight = availableParallelism(),
  }: {
    database: Pick<DatabaseConnection, 'readStatement'>;
    /**
     * Statements of one text out at once: one per core, as more would only queue for a core;
     * the rest wait, and go together in the next.
     */
    inFlight?: number;
  }) {
    this.#database = database;
    this.#inFlight = Math.max(1, inFlight);
  }

  /** The rows of `text` run with `values`, cancelled by PostgreSQL after `timeoutMs`. */
  read<Row>(
    timeoutMs: number,
    text: string,
    values: readonly unknown[],
    options: StatementOptions = {},
  ): Promise<Row[]> {
    return new Promise((resolve, reject) => {
      let lane = this.#lanes.get(text);
      if (lane === undefined) {
        lane = { waiting: [], inFlight: 0 };
        this.#lanes.set(text, lane);
      }
      lane.waiting.push({ values, timeoutMs, resolve: resolve as Waiting['resolve'], reject });
      this.#send(text, lane, options);
    });
  }

  #send(text: string, lane: Lane, options: StatementOptions): void {
    while (lane.inFlight < this.#inFlight && lane.waiting.length > 0) {
      const batch = lane.waiting.splice(0, BATCH);
      lane.inFlight += 1;
      void this.#run(text, batch, options).finally(() => {
        lane.inFlight -= 1;
        this.#send(text, lane, options);
        if (lane.inFlight === 0 && lane.waiting.length === 0) this.#lanes.delete(text);
      });
    }
  }

  async #run(text: string, batch: readonly Waiting[], options: StatementOptions): Promise<void> {
    // The batch may run as long as its most patient statement may.
    const timeoutMs = Math.max(...batch.map((waiting) => waiting.timeoutMs));
    try {
      const rows = await this.#database.readStatement<Record<string, unknown>>(
        timeoutMs,
        batchedStatement(text),
        [batch.map((waiting) => waiting.values.map(asText))],
        options,
      );
      const answers = batch.map((): unknown[] => []);
      for (const { [BATCH_INDEX]: index, ...row } of rows) answers[Number(index) - 1]?.push(row);
      batch.forEach((waiting, index) => waiting.resolve(answers[index] as unknown[]));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}

/**
 * `text` run once per row of a two-dimensional text array ($1): its parameter $n becomes the
 * n-th value of the row, cast as the statement casts it; each answer row carries its row's
 * index. The statement is a lateral subquery, so it runs as it would alone, row after row.
 */
export function batchedStatement(text: string): string {
  const inner = text.replace(/\$(\d+)/g, (_, n: string) => `($1::text[])[b.i][${n}]`);
  return (
    `SELECT b.i AS ${BATCH_INDEX}, r.* FROM generate_subscripts($1::text[], 1) AS b(i) ` +
    `CROSS JOIN LATERAL (${inner}) r`
  );
}

/** A value as the text PostgreSQL reads it from (what the driver would send for it). */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') throw new TypeError('a batched statement takes scalar values');
  return String(value);
}
