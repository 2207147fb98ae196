import type { DatabaseConnection } from '../connection/database.js';

/** Fees paid by confirmed transactions of one type since a time, as GET /api/node/fees shows them. */
export interface FeeStatistic {
  readonly typeGroup: number;
  readonly type: number;
  /** Rounded to the nearest integer (halves up), as are medians of an even count. */
  readonly avg: bigint;
  readonly median: bigint;
  readonly min: bigint;
  readonly max: bigint;
  readonly sum: bigint;
}

interface FeeStatisticRow {
  type_group: number;
  type: number;
  avg: string;
  median: string;
  min: string;
  max: string;
  sum: string;
}

/** Per type, the fees of transactions forged at or after `since` (seconds after the epoch). */
export async function feeStatistics(
  database: DatabaseConnection,
  since: number,
): Promise<FeeStatistic[]> {
  // The timestamp index narrows the scan to the window; a few thousand groups at most.
  const rows = (await database.manager.query(
    // The median from the two middle values (the same one for an odd count), exact in numeric.
    `SELECT type_group, type, round(avg(fee))::bigint AS avg, min(fee) AS min, max(fee) AS max,
            sum(fee) AS sum,
            round((percentile_disc(0.5) WITHIN GROUP (ORDER BY fee)
                 + percentile_disc(0.5) WITHIN GROUP (ORDER BY fee DESC))::numeric / 2)::bigint AS median
       FROM transactions WHERE "timestamp" >= $1
       GROUP BY type_group, type ORDER BY type_group, type`,
    [since],
  )) as FeeStatisticRow[];
  return rows.map((row) => ({
    typeGroup: row.type_group,
    type: row.type,
    avg: BigInt(row.avg),
    median: BigInt(row.median),
    min: BigInt(row.min),
    max: BigInt(row.max),
    sum: BigInt(row.sum),
  }));
}
