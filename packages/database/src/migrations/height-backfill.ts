import { ProgressLog } from '@lni/kernel';
import type { QueryRunner } from 'typeorm';
import { migrationLogger } from './migration-logger.js';

/** Chain heights backfilled per statement, so that progress shows on a long chain. */
const BACKFILL_HEIGHTS = 20_000;

/**
 * Runs `statement(from, to)` over the stored chain in height ranges, logging progress through
 * the kernel's ProgressLog; nothing when no transaction is stored. For migrations that fill a
 * table kept from the transactions.
 */
export async function backfillByHeight(
  runner: QueryRunner,
  messages: { readonly message: string; readonly doneMessage: string },
  statement: (from: number, to: number) => string,
): Promise<void> {
  const [bounds] = (await runner.query(
    `SELECT coalesce(max(height), 0) AS top,
       (SELECT coalesce(sum(count), 0) FROM transaction_totals) AS transactions
     FROM blocks`,
  )) as { top: number | string; transactions: number | string }[];
  const top = Number(bounds?.top ?? 0);
  if (Number(bounds?.transactions ?? 0) === 0) return;
  const progress = new ProgressLog({
    logger: migrationLogger(),
    ...messages,
    positionField: 'height',
    unit: 'blocks',
  });
  for (let from = 0; from <= top; from += BACKFILL_HEIGHTS) {
    const to = Math.min(top, from + BACKFILL_HEIGHTS - 1);
    await runner.query(statement(from, to));
    progress.update(to, top);
  }
  progress.finish();
}

/** The stored transactions of heights `from` to `to`, as a source for `partiesOf` and the like. */
export const storedBetween = (from: number, to: number): string =>
  `(SELECT * FROM transactions WHERE block_height BETWEEN ${from} AND ${to}) AS stored`;
