import { calculateRound, type Milestones } from '@lni/crypto';
import { KernelError } from '@lni/kernel';
import type { EntityManager } from '@lni/database/contracts';

/** A rollback target that is not a height of the chain: nothing was changed. */
export class RollbackTargetError extends KernelError {
  constructor(message: string) {
    super('ERR_ROLLBACK_TARGET', message);
  }
}

export interface RollbackOutcome {
  readonly fromHeight: number;
  readonly toHeight: number;
  readonly blocks: number;
  readonly transactions: number;
  /** Transactions put back into `pool_transactions` (those not already there). */
  readonly returnedToPool: number;
}

export interface RollbackOptions {
  /** Called after each batch of removed blocks with the count so far. */
  readonly onProgress?: (blocksRemoved: number, blocksTotal: number) => void;
  /** Blocks removed per statement (the whole rollback is still one transaction). */
  readonly batchBlocks?: number;
}

/**
 * Takes the stored chain back to `height`, inside the caller's transaction so that an
 * interrupted rollback leaves nothing half done: the transactions of the dropped blocks go back
 * to the pool's table first (in chain order, before what the pool already held, so that each
 * sender's nonces still ascend and the next start judges them again), then the blocks and their
 * transactions, the rounds elected above `height` and the missed slots recorded above it are
 * deleted, and `state_head` is cleared so that the next start rebuilds the wallet table from the
 * chain instead of loading one that describes blocks that are gone.
 */
export async function rollBackChain(
  manager: EntityManager,
  height: number,
  milestones: Milestones,
  options: RollbackOptions = {},
): Promise<RollbackOutcome> {
  const tip = await tipHeight(manager);
  if (!Number.isSafeInteger(height) || height < 1) {
    throw new RollbackTargetError(`height ${String(height)}: expected a height of 1 or more`);
  }
  if (height > tip) {
    throw new RollbackTargetError(`height ${height} is above the chain's tip ${tip}`);
  }
  const dropped = tip - height;
  const counted = (await manager.query(
    'SELECT count(*)::int AS n FROM transactions WHERE block_height > $1',
    [height],
  )) as { n: number }[];
  const returnedToPool = await returnToPool(manager, height);
  const batch = options.batchBlocks ?? 200;
  for (let top = tip; top > height; top -= batch) {
    const below = Math.max(height, top - batch);
    await manager.query('DELETE FROM transactions WHERE block_height > $1', [below]);
    await manager.query('DELETE FROM blocks WHERE height > $1', [below]);
    options.onProgress?.(tip - below, dropped);
  }
  // Rounds elected by a block above `height`: the election of round r happens at its first
  // block's predecessor, so the latest round elected at `height` is the round of height + 1.
  const latestRound = calculateRound(height + 1, milestones).round;
  await manager.query('DELETE FROM rounds WHERE round > $1', [latestRound]);
  if (await tableExists(manager, 'missed_slots')) {
    await manager.query('DELETE FROM missed_slots WHERE height > $1', [height]);
  }
  if (await tableExists(manager, 'state_head')) {
    await manager.query('DELETE FROM state_head');
  }
  return {
    fromHeight: tip,
    toHeight: height,
    blocks: dropped,
    transactions: counted[0]?.n ?? 0,
    returnedToPool,
  };
}

/** The height of the last stored block; 0 for an empty chain. */
export async function tipHeight(manager: EntityManager): Promise<number> {
  const rows = (await manager.query('SELECT coalesce(max(height), 0)::int AS h FROM blocks')) as {
    h: number;
  }[];
  return rows[0]?.h ?? 0;
}

/**
 * Puts the transactions of the blocks above `height` in front of the pool's own, keeping both
 * orders: the pool's rows are set aside, the returned ones inserted in chain order, the pool's
 * put back after them. Returns how many were returned (an id the pool held is kept once).
 */
async function returnToPool(manager: EntityManager, height: number): Promise<number> {
  await manager.query(
    `CREATE TEMP TABLE pool_kept ON COMMIT DROP AS
       SELECT id, serialized, added_at, row_number() OVER (ORDER BY sequence) AS position
       FROM pool_transactions`,
  );
  await manager.query('DELETE FROM pool_transactions');
  const returned = (await manager.query(
    `WITH added AS (
       INSERT INTO pool_transactions (id, serialized, added_at)
       SELECT id, serialized, $2::bigint FROM transactions
       WHERE block_height > $1 ORDER BY block_height, sequence
       ON CONFLICT (id) DO NOTHING RETURNING 1
     ) SELECT count(*)::int AS n FROM added`,
    [height, Date.now()],
  )) as { n: number }[];
  await manager.query(
    `INSERT INTO pool_transactions (id, serialized, added_at)
     SELECT id, serialized, added_at FROM pool_kept ORDER BY position
     ON CONFLICT (id) DO NOTHING`,
  );
  await manager.query('DROP TABLE pool_kept');
  return returned[0]?.n ?? 0;
}

async function tableExists(manager: EntityManager, table: string): Promise<boolean> {
  const rows = (await manager.query('SELECT to_regclass($1) IS NOT NULL AS present', [table])) as {
    present: boolean;
  }[];
  return rows[0]?.present === true;
}
