import type { EntityManager } from 'typeorm';
import { IntegrityError } from '../errors.js';

interface Finding {
  readonly height: number;
  readonly reason: string;
}

/**
 * Verifies what state is rebuilt from: heights run 1, 2, 3... without gaps, each block names
 * its predecessor (the genesis block none: NULL, or '0' as ARK stores it), and each
 * transaction's height is its block's. Throws `IntegrityError` naming
 * the lowest bad height; resolves with the chain height otherwise.
 */
export async function checkChainIntegrity(manager: EntityManager): Promise<number> {
  const findings = (
    await Promise.all([
      firstGap(manager),
      firstBrokenLink(manager),
      firstMisplacedTransaction(manager),
    ])
  ).filter((finding): finding is Finding => finding !== undefined);
  const first = findings.sort((a, b) => a.height - b.height)[0];
  if (first) throw new IntegrityError(first.height, first.reason);
  const top = (await manager.query('SELECT COALESCE(max(height), 0) AS height FROM blocks')) as {
    height: number;
  }[];
  return top[0]?.height ?? 0;
}

async function firstGap(manager: EntityManager): Promise<Finding | undefined> {
  const rows = (await manager.query(
    `SELECT expected FROM (
       SELECT height, row_number() OVER (ORDER BY height) AS expected FROM blocks
     ) numbered WHERE height <> expected ORDER BY expected LIMIT 1`,
  )) as { expected: string }[];
  const row = rows[0];
  return row ? { height: Number(row.expected), reason: 'block missing' } : undefined;
}

async function firstBrokenLink(manager: EntityManager): Promise<Finding | undefined> {
  const rows = (await manager.query(
    `SELECT b.height FROM blocks b LEFT JOIN blocks p ON p.height = b.height - 1
      WHERE (b.height = 1 AND b.previous_block IS NOT NULL AND b.previous_block <> '0')
         OR (b.height > 1 AND p.id IS NOT NULL AND b.previous_block IS DISTINCT FROM p.id)
      ORDER BY b.height LIMIT 1`,
  )) as { height: number }[];
  const row = rows[0];
  return row
    ? { height: row.height, reason: 'previous block id does not match the block below' }
    : undefined;
}

async function firstMisplacedTransaction(manager: EntityManager): Promise<Finding | undefined> {
  const rows = (await manager.query(
    `SELECT LEAST(t.block_height, b.height) AS height FROM transactions t
       JOIN blocks b ON b.id = t.block_id
      WHERE b.height <> t.block_height
      ORDER BY 1 LIMIT 1`,
  )) as { height: number }[];
  const row = rows[0];
  return row
    ? { height: row.height, reason: "a transaction's block height differs from its block's" }
    : undefined;
}
