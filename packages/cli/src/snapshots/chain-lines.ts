import { blockFromRow, type BlockRow } from '@lni/database';
import type { EntityManager } from '@lni/database/contracts';

/**
 * One line of the snapshot's chain part: a block's header (amounts as decimal strings) and its
 * transactions' wire bytes in hex, in order. A block and its transactions on one line let a
 * reader check each block whole as it streams.
 */
export interface ChainLine {
  readonly block: SnapshotBlockHeader;
  readonly transactions: readonly string[];
}

export interface SnapshotBlockHeader {
  readonly id: string;
  readonly version: number;
  readonly timestamp: number;
  readonly height: number;
  readonly previousBlock: string | null;
  readonly numberOfTransactions: number;
  readonly totalAmount: string;
  readonly totalFee: string;
  readonly reward: string;
  readonly payloadLength: number;
  readonly payloadHash: string;
  readonly generatorPublicKey: string;
  readonly blockSignature: string;
}

/** Blocks read per query: bounded memory whatever the chain's length. */
const BLOCKS_PER_READ = 1_000;

/** The chain's lines from genesis to `height`, read in batches by height. */
export async function* chainLines(
  manager: EntityManager,
  height: number,
): AsyncGenerator<ChainLine> {
  for (let from = 1; from <= height; from += BLOCKS_PER_READ) {
    const to = Math.min(height, from + BLOCKS_PER_READ - 1);
    const blocks = (await manager.query(
      'SELECT * FROM blocks WHERE height BETWEEN $1 AND $2 ORDER BY height',
      [from, to],
    )) as BlockRow[];
    const rows = (await manager.query(
      `SELECT block_height, serialized FROM transactions
       WHERE block_height BETWEEN $1 AND $2 ORDER BY block_height, sequence`,
      [from, to],
    )) as { block_height: number; serialized: Buffer }[];
    const byHeight = new Map<number, string[]>();
    for (const row of rows) {
      const list = byHeight.get(row.block_height) ?? [];
      list.push(row.serialized.toString('hex'));
      byHeight.set(row.block_height, list);
    }
    for (const row of blocks) {
      yield { block: headerOf(row), transactions: byHeight.get(row.height) ?? [] };
    }
  }
}

/** A stored block's header with its amounts as decimal strings, as a chain line carries it. */
function headerOf(row: BlockRow): SnapshotBlockHeader {
  const header = blockFromRow(row);
  return {
    ...header,
    totalAmount: header.totalAmount.toString(),
    totalFee: header.totalFee.toString(),
    reward: header.reward.toString(),
  };
}

/** Rows of a table as JSON lines (rounds, wallets), `BLOCKS_PER_READ`-bounded by keyset. */
export async function* tableLines(
  manager: EntityManager,
  query: string,
  values: readonly unknown[] = [],
): AsyncGenerator<string> {
  // Small tables next to the chain (rounds: 51 rows a round; wallets: one row each): read in
  // pages by their row order, as JSON built by PostgreSQL so that every type round-trips.
  const page = 10_000;
  for (let offset = 0; ; offset += page) {
    const rows = (await manager.query(`${query} LIMIT ${page} OFFSET ${offset}`, [...values])) as {
      line: string;
    }[];
    for (const row of rows) yield row.line;
    if (rows.length < page) return;
  }
}
