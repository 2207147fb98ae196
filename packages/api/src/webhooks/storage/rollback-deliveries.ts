import type { EntityManager } from '@lni/database/contracts';

/**
 * For `kernel db:rollback`: forgets the deliveries not sent yet (pending, or conditional and
 * not yet judged) of the blocks above `height` and of their transactions, which the chain no
 * longer holds. Deliveries already sent, or given up, stay: they record what was posted.
 * Returns how many were dropped; nothing when the webhook tables do not exist.
 */
export async function dropUnsentDeliveriesAbove(
  manager: EntityManager,
  height: number,
): Promise<number> {
  const [table] = (await manager.query(
    `SELECT to_regclass('webhook_deliveries') IS NOT NULL AS present`,
  )) as { present: boolean }[];
  if (table?.present !== true) return 0;
  const [gone] = (await manager.query(
    `WITH gone AS (
       DELETE FROM webhook_deliveries
       WHERE status IN ('pending', 'conditional')
         AND CASE body::jsonb->>'event'
               WHEN 'block.applied' THEN (body::jsonb->'data'->>'height')::bigint > $1
               WHEN 'transaction.applied' THEN (body::jsonb->'data'->>'blockHeight')::bigint > $1
               ELSE false
             END
       RETURNING 1
     ) SELECT count(*)::int AS n FROM gone`,
    [height],
  )) as { n: number }[];
  return gone?.n ?? 0;
}
