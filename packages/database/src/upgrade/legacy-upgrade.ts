import type { Logger } from '@lni/kernel';
import type { DataSource, EntityManager } from 'typeorm';
import { MigrationError } from '../errors.js';
import { createTransactionsTable } from '../migrations/schema-sql.js';

export interface UpgradeProgress {
  readonly rowsDone: number;
  readonly rowsTotal: number;
  /** Every block up to this height has its transactions copied. */
  readonly height: number;
}

export interface LegacyUpgradeOptions {
  readonly logger: Logger;
  readonly batchRows: number;
  /** Breathing room for a server that also serves other work; 0 in normal runs. */
  readonly pauseBetweenBatchesMs: number;
  readonly onProgress?: ((progress: UpgradeProgress) => void) | undefined;
  /** Stops between batches (Ctrl-C): what is committed stays, the next run continues. */
  readonly signal?: AbortSignal | undefined;
  /** Told once the last batch is copied: from here the upgrade finishes, whatever the signal. */
  readonly onLastBatchCopied?: (() => void) | undefined;
}

const NEW_TABLE = 'lni_transactions_v3';
const CHECKPOINT_TABLE = 'lni_upgrade_27';
/** 2.7 functions its triggers and check constraints used; they would only slow 3.0 writes. */
const LEGACY_FUNCTIONS = ['check_previous_block', 'check_transaction_nonce', 'set_row_nonce'];

/**
 * Upgrades a 2.7 database in place. The 3.0 transactions table is built beside the 2.7 one
 * in batches, each committed together with its checkpoint, so an interrupted run continues
 * where it stopped; the 2.7 tables stay untouched until one final transaction switches them.
 */
export async function upgradeLegacyDatabase(
  dataSource: DataSource,
  options: LegacyUpgradeOptions,
): Promise<{ rows: number }> {
  const { logger } = options;
  await dataSource.transaction((manager) => prepare(manager));
  let progress = await readCheckpoint(dataSource.manager);
  if (progress.rowsDone > 0) {
    logger.info({ ...progress }, 'Resuming the 2.7 upgrade from its checkpoint');
  }
  options.onProgress?.(progress);
  for (;;) {
    if (options.signal?.aborted) {
      throw new MigrationError(
        `2.7 upgrade interrupted at height ${progress.height} (${progress.rowsDone} of ${progress.rowsTotal} rows); run it again to continue`,
      );
    }
    const next = await dataSource.transaction((manager) => copyBatch(manager, options.batchRows));
    if (!next) break;
    progress = next;
    options.onProgress?.(progress);
    if (options.pauseBetweenBatchesMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, options.pauseBetweenBatchesMs));
    }
  }
  options.onLastBatchCopied?.();
  logger.info({ ...progress }, '2.7 upgrade: every batch copied, switching to the 3.0 tables');
  const rows = await dataSource.transaction((manager) => switchTables(manager));
  logger.info({ rows }, '2.7 upgrade finished: transactions carried over');
  return { rows };
}

async function prepare(manager: EntityManager): Promise<void> {
  await manager.query(`CREATE TABLE IF NOT EXISTS ${CHECKPOINT_TABLE} (
    id SMALLINT PRIMARY KEY CHECK (id = 1),
    last_height INTEGER NOT NULL,
    rows_done BIGINT NOT NULL,
    rows_total BIGINT NOT NULL
  )`);
  await manager.query(createTransactionsTable(NEW_TABLE));
  await manager.query(
    `INSERT INTO ${CHECKPOINT_TABLE} (id, last_height, rows_done, rows_total)
     SELECT 1, 0, 0, count(*) FROM transactions
     ON CONFLICT (id) DO NOTHING`,
  );
}

async function readCheckpoint(manager: EntityManager, lock = false): Promise<UpgradeProgress> {
  const rows = (await manager.query(
    `SELECT last_height, rows_done, rows_total FROM ${CHECKPOINT_TABLE} WHERE id = 1${lock ? ' FOR UPDATE' : ''}`,
  )) as { last_height: number; rows_done: string; rows_total: string }[];
  const row = rows[0];
  if (!row) throw new MigrationError('The 2.7 upgrade checkpoint is missing');
  return {
    height: row.last_height,
    rowsDone: Number(row.rows_done),
    rowsTotal: Number(row.rows_total),
  };
}

/** Copies the transactions of the next run of blocks holding about `batchRows` of them. */
async function copyBatch(
  manager: EntityManager,
  batchRows: number,
): Promise<UpgradeProgress | undefined> {
  // The row lock makes a second upgrader wait instead of copying the same batch.
  const checkpoint = await readCheckpoint(manager, true);
  const end = (await manager.query(
    `SELECT COALESCE(
       (SELECT height FROM (
          SELECT height, sum(number_of_transactions) OVER (ORDER BY height) AS running
            FROM (SELECT height, number_of_transactions FROM blocks
                   WHERE height > $1 ORDER BY height LIMIT $2) window_blocks
        ) totals WHERE running >= $2 ORDER BY height LIMIT 1),
       (SELECT max(height) FROM (SELECT height FROM blocks WHERE height > $1 ORDER BY height LIMIT $2) tail)
     ) AS height`,
    [checkpoint.height, batchRows],
  )) as { height: number | null }[];
  const endHeight = end[0]?.height;
  if (endHeight === null || endHeight === undefined) return undefined;
  const inserted = await copyRange(manager, checkpoint.height, endHeight);
  const rowsDone = checkpoint.rowsDone + inserted;
  await manager.query(
    `UPDATE ${CHECKPOINT_TABLE} SET last_height = $1, rows_done = $2, rows_total = GREATEST(rows_total, $2) WHERE id = 1`,
    [endHeight, rowsDone],
  );
  return { height: endHeight, rowsDone, rowsTotal: Math.max(checkpoint.rowsTotal, rowsDone) };
}

async function copyRange(manager: EntityManager, after: number, upTo: number): Promise<number> {
  const rows = (await manager.query(
    `WITH copied AS (
       INSERT INTO ${NEW_TABLE} (id, version, block_id, block_height, sequence, "timestamp", nonce,
         sender_public_key, recipient_id, type, type_group, vendor_field, amount, fee, serialized, asset)
       SELECT t.id, t.version, t.block_id, b.height, t.sequence, b."timestamp", COALESCE(t.nonce, 0),
         t.sender_public_key, t.recipient_id, t.type, COALESCE(t.type_group, 1), t.vendor_field,
         t.amount, t.fee, t.serialized, t.asset
         FROM blocks b JOIN transactions t ON t.block_id = b.id
        WHERE b.height > $1 AND b.height <= $2
       RETURNING 1)
     SELECT count(*) AS count FROM copied`,
    [after, upTo],
  )) as { count: string }[];
  return Number(rows[0]?.count ?? 0);
}

/** One transaction: catch up, verify, replace the 2.7 table and remove 2.7 leftovers. */
async function switchTables(manager: EntityManager): Promise<number> {
  await manager.query('LOCK TABLE blocks, transactions IN EXCLUSIVE MODE');
  const checkpoint = await readCheckpoint(manager, true);
  const last = (await manager.query('SELECT COALESCE(max(height), 0) AS height FROM blocks')) as {
    height: number;
  }[];
  await copyRange(manager, checkpoint.height, last[0]?.height ?? 0);
  const counts = (await manager.query(
    `SELECT (SELECT count(*) FROM transactions) AS legacy, (SELECT count(*) FROM ${NEW_TABLE}) AS copied`,
  )) as { legacy: string; copied: string }[];
  const legacy = Number(counts[0]?.legacy);
  const copied = Number(counts[0]?.copied);
  if (legacy !== copied) {
    throw new MigrationError(
      `2.7 upgrade stopped before switching: ${legacy - copied} of ${legacy} transactions belong to no stored block; the 2.7 tables are unchanged`,
    );
  }
  await manager.query('DROP TABLE transactions CASCADE');
  await manager.query(`ALTER TABLE ${NEW_TABLE} RENAME TO transactions`);
  await manager.query(
    `ALTER TABLE transactions RENAME CONSTRAINT ${NEW_TABLE}_pkey TO transactions_pkey`,
  );
  await manager.query('ALTER TABLE blocks DROP CONSTRAINT IF EXISTS chained_blocks');
  // The genesis block's previous block stays '0': ARK 3.x keeps it so in its own 3.0 tables,
  // and an upgraded database is to be ARK's. blockFromRow reads it as none.
  const functions = (await manager.query(
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
       JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.proname = ANY($1)`,
    [LEGACY_FUNCTIONS],
  )) as { signature: string }[];
  for (const { signature } of functions) await manager.query(`DROP FUNCTION ${signature}`);
  // 2.7's own migrations list and its wallet cache; 3.0 rebuilds wallets from the chain.
  await manager.query('DROP TABLE IF EXISTS migrations, wallets');
  await manager.query(`DROP TABLE ${CHECKPOINT_TABLE}`);
  return copied;
}
