import type { BlockHeader } from '@lni/crypto';
import type { EntityManager } from 'typeorm';
import type { DatabaseConnection } from '../connection/database.js';
import type {
  BlockWithTransactions,
  SerializedTransaction,
  StoredTransaction,
} from '../records.js';
import {
  BLOCK_COLUMNS,
  blockFromRow,
  TRANSACTION_COLUMNS,
  transactionFromRow,
  type BlockRow,
  type TransactionRow,
} from './rows.js';

export interface BlockStorageDeps {
  readonly database: DatabaseConnection;
}

/**
 * Writes and reads the chain. Writes accept the manager of a transaction the caller already
 * runs (so that state changes and the write commit as one unit); without one they run their own.
 */
export class BlockStorage {
  private readonly database: DatabaseConnection;

  constructor({ database }: BlockStorageDeps) {
    this.database = database;
  }

  /** Saves blocks with their transactions; on any error nothing of the batch remains. */
  async saveBlocks(batch: readonly BlockWithTransactions[], manager?: EntityManager) {
    if (batch.length === 0) return;
    if (!manager) {
      await this.database.transaction((own) => this.saveBlocks(batch, own));
      return;
    }
    const blocks = batch.map(({ block }) => block);
    const transactions = batch.flatMap((entry) => entry.transactions);
    const blockValues = arrayValues(BLOCK_ARRAYS, blocks);
    if (transactions.length === 0) {
      await manager.query(INSERT_BLOCKS, blockValues);
      return;
    }
    await manager.query(INSERT_BLOCKS_AND_TRANSACTIONS, [
      ...blockValues,
      ...arrayValues(TRANSACTION_ARRAYS, transactions),
    ]);
  }

  /** Rollback: removes every block above `height` and its transactions. */
  async deleteBlocksAbove(
    height: number,
    manager?: EntityManager,
  ): Promise<{ blocks: number; transactions: number }> {
    if (!manager) return this.database.transaction((own) => this.deleteBlocksAbove(height, own));
    const transactions = (await manager.query(
      'WITH gone AS (DELETE FROM transactions WHERE block_height > $1 RETURNING 1) SELECT count(*) AS count FROM gone',
      [height],
    )) as { count: string }[];
    const blocks = (await manager.query(
      'WITH gone AS (DELETE FROM blocks WHERE height > $1 RETURNING 1) SELECT count(*) AS count FROM gone',
      [height],
    )) as { count: string }[];
    return { blocks: Number(blocks[0]?.count), transactions: Number(transactions[0]?.count) };
  }

  async getLastBlock(manager?: EntityManager): Promise<BlockHeader | undefined> {
    const rows = await this.blockRows('ORDER BY height DESC LIMIT 1', [], manager);
    return rows[0];
  }

  async getBlockById(id: string, manager?: EntityManager): Promise<BlockHeader | undefined> {
    const rows = await this.blockRows('WHERE id = $1', [id], manager);
    return rows[0];
  }

  async getBlockByHeight(height: number, manager?: EntityManager) {
    const rows = await this.blockRows('WHERE height = $1', [height], manager);
    return rows[0];
  }

  /** The highest block `generatorPublicKey` forged below `belowHeight` (a delegate's last block). */
  async getLastBlockForgedBy(
    generatorPublicKey: string,
    belowHeight: number,
    manager?: EntityManager,
  ): Promise<BlockHeader | undefined> {
    const rows = await this.blockRows(
      'WHERE generator_public_key = $1 AND height < $2 ORDER BY height DESC LIMIT 1',
      [generatorPublicKey, belowHeight],
      manager,
    );
    return rows[0];
  }

  /** Blocks with `from <= height <= to`, ascending. */
  getBlocksByHeightRange(from: number, to: number, manager?: EntityManager) {
    return this.blockRows('WHERE height BETWEEN $1 AND $2 ORDER BY height', [from, to], manager);
  }

  async getTransactionById(id: string, manager?: EntityManager) {
    const rows = await this.transactionRows('WHERE id = $1', [id], manager);
    return rows[0];
  }

  /** The transactions of one block in their order inside it. */
  getTransactionsByBlockId(blockId: string, manager?: EntityManager) {
    return this.transactionRows('WHERE block_id = $1 ORDER BY sequence', [blockId], manager);
  }

  /** Transactions of the blocks in a height range, in chain order, every column. */
  getTransactionsByHeightRange(from: number, to: number, manager?: EntityManager) {
    return this.transactionRows(
      'WHERE block_height BETWEEN $1 AND $2 ORDER BY block_height, sequence',
      [from, to],
      manager,
    );
  }

  /**
   * Only the wire bytes of a height range's transactions, in block order: all a state
   * rebuild or a peer's getBlocks needs, without parsing a dozen columns it would throw away.
   */
  async getSerializedTransactionsByHeightRange(
    from: number,
    to: number,
    manager: EntityManager = this.database.manager,
  ): Promise<SerializedTransaction[]> {
    const rows = (await manager.query(
      'SELECT block_height, serialized FROM transactions WHERE block_height BETWEEN $1 AND $2 ORDER BY block_height, sequence',
      [from, to],
    )) as { block_height: number; serialized: Buffer }[];
    return rows.map((row) => ({
      blockHeight: Number(row.block_height),
      serialized: row.serialized,
    }));
  }

  private async blockRows(
    tail: string,
    params: unknown[],
    manager = this.database.manager,
  ): Promise<BlockHeader[]> {
    const rows = (await manager.query(
      `SELECT ${BLOCK_COLUMNS} FROM blocks ${tail}`,
      params,
    )) as BlockRow[];
    return rows.map(blockFromRow);
  }

  private async transactionRows(
    tail: string,
    params: unknown[],
    manager = this.database.manager,
  ): Promise<StoredTransaction[]> {
    const rows = (await manager.query(
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions ${tail}`,
      params,
    )) as TransactionRow[];
    return rows.map(transactionFromRow);
  }
}

/** A column written as an array parameter: its PostgreSQL type and its value in a record. */
type ArrayColumn<Record> = readonly [type: string, value: (record: Record) => unknown];

/** In BLOCK_COLUMNS' order. */
const BLOCK_ARRAYS: readonly ArrayColumn<BlockHeader>[] = [
  ['varchar', (b) => b.id],
  ['smallint', (b) => b.version],
  ['integer', (b) => b.timestamp],
  ['varchar', (b) => b.previousBlock],
  ['integer', (b) => b.height],
  ['integer', (b) => b.numberOfTransactions],
  ['bigint', (b) => b.totalAmount.toString()],
  ['bigint', (b) => b.totalFee.toString()],
  ['bigint', (b) => b.reward.toString()],
  ['integer', (b) => b.payloadLength],
  ['varchar', (b) => b.payloadHash],
  ['varchar', (b) => b.generatorPublicKey],
  ['varchar', (b) => b.blockSignature],
];

/** In TRANSACTION_COLUMNS' order. */
const TRANSACTION_ARRAYS: readonly ArrayColumn<StoredTransaction>[] = [
  ['varchar', (t) => t.id],
  ['smallint', (t) => t.version],
  ['varchar', (t) => t.blockId],
  ['integer', (t) => t.blockHeight],
  ['smallint', (t) => t.sequence],
  ['integer', (t) => t.timestamp],
  ['bigint', (t) => t.nonce.toString()],
  ['varchar', (t) => t.senderPublicKey],
  ['varchar', (t) => t.recipientId],
  ['smallint', (t) => t.type],
  ['integer', (t) => t.typeGroup],
  ['bytea', (t) => (t.vendorField === null ? null : Buffer.from(t.vendorField, 'utf8'))],
  ['bigint', (t) => t.amount.toString()],
  ['bigint', (t) => t.fee.toString()],
  ['bytea', (t) => Buffer.from(t.serialized)],
  ['jsonb', (t) => (t.asset === null ? null : JSON.stringify(t.asset))],
];

/** `$first::type[], ...`: the columns' array parameters, typed. */
function arrayParameters(columns: readonly ArrayColumn<never>[], first = 1): string {
  return columns.map(([type], i) => `$${first + i}::${type}[]`).join(', ');
}

/** The values of arrayParameters: one array per column. */
function arrayValues<Record>(
  columns: readonly ArrayColumn<Record>[],
  records: readonly Record[],
): unknown[][] {
  return columns.map(([, value]) => records.map(value));
}

const INSERT_BLOCKS = `INSERT INTO blocks (${BLOCK_COLUMNS})
  SELECT * FROM unnest(${arrayParameters(BLOCK_ARRAYS)})`;
// One round trip for a batch: the transactions' foreign key is checked at the statement's end,
// when the blocks inserted beside them are visible.
const INSERT_BLOCKS_AND_TRANSACTIONS = `WITH saved_blocks AS (${INSERT_BLOCKS})
  INSERT INTO transactions (${TRANSACTION_COLUMNS})
  SELECT * FROM unnest(${arrayParameters(TRANSACTION_ARRAYS, BLOCK_ARRAYS.length + 1)})`;
