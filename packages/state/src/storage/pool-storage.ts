import type { DatabaseConnection, EntityManager } from '@lni/database/contracts';

/** A transaction waiting in the pool: its wire bytes and when it arrived (Unix ms). */
export interface StoredPoolTransaction {
  readonly id: string;
  readonly serialized: Uint8Array;
  readonly addedAt: number;
}

export interface PoolStorageDeps {
  readonly database: DatabaseConnection;
}

interface PoolRow {
  id: string;
  serialized: Buffer;
  added_at: string;
}

/**
 * The transaction pool on disk (`pool_transactions`), so that what the node accepted survives a
 * crash. Rows keep the order they were added in; adding an id already kept changes nothing.
 */
export class PoolStorage {
  private readonly database: DatabaseConnection;

  constructor({ database }: PoolStorageDeps) {
    this.database = database;
  }

  /**
   * Forgets `removed`, then adds `added` in their order, as one commit: one multi-row insert
   * however many transactions the batch has.
   */
  async save(
    added: readonly StoredPoolTransaction[],
    removed: readonly string[] = [],
    manager?: EntityManager,
  ): Promise<void> {
    if (added.length === 0) return this.remove(removed, manager);
    if (removed.length > 0 && !manager) {
      return this.database.transaction((own) => this.save(added, removed, own));
    }
    const target = manager ?? this.database.manager;
    await this.remove(removed, target);
    await target.query(
      `INSERT INTO pool_transactions (id, serialized, added_at)
       SELECT id, serialized, added_at
       FROM unnest($1::varchar[], $2::bytea[], $3::bigint[])
         WITH ORDINALITY AS batch(id, serialized, added_at, position)
       ORDER BY position
       ON CONFLICT (id) DO NOTHING`,
      [
        added.map((tx) => tx.id),
        added.map((tx) => Buffer.from(tx.serialized)),
        added.map((tx) => tx.addedAt),
      ],
    );
  }

  async remove(ids: readonly string[], manager = this.database.manager): Promise<void> {
    if (ids.length === 0) return;
    await manager.query('DELETE FROM pool_transactions WHERE id = ANY($1::varchar[])', [ids]);
  }

  /** Every kept transaction, in the order they were added. */
  async all(manager = this.database.manager): Promise<StoredPoolTransaction[]> {
    const rows = (await manager.query(
      'SELECT id, serialized, added_at FROM pool_transactions ORDER BY sequence',
    )) as PoolRow[];
    return rows.map((row) => ({
      id: row.id,
      serialized: row.serialized,
      addedAt: Number(row.added_at),
    }));
  }

  /**
   * Forgets the transactions a stored block already carries (a crash between a block's commit
   * and the pool's removal leaves them behind); returns their ids.
   */
  async removeConfirmed(manager = this.database.manager): Promise<string[]> {
    const rows = (await manager.query(
      `WITH gone AS (
         DELETE FROM pool_transactions pool USING transactions confirmed
         WHERE confirmed.id = pool.id RETURNING pool.id
       )
       SELECT id FROM gone`,
    )) as { id: string }[];
    return rows.map((row) => row.id);
  }
}
