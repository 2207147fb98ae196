import type { DatabaseConnection } from '@lni/database/contracts';
import type { MissedSlot, MissedSlotReader } from '../contracts/storage.js';

export type { MissedSlot };

export interface MissedSlotStorageDeps {
  readonly database: DatabaseConnection;
}

interface MissedSlotRow {
  slot: string;
  height: string;
  round: string;
  timestamp: string;
  public_key: string;
}

/** The missed slots of every delegate, written with the block after each gap. */
export class MissedSlotStorage implements MissedSlotReader {
  private readonly database: DatabaseConnection;

  constructor({ database }: MissedSlotStorageDeps) {
    this.database = database;
  }

  async save(slots: readonly MissedSlot[], manager = this.database.manager): Promise<void> {
    if (slots.length === 0) return;
    await manager.query(
      `INSERT INTO missed_slots (slot, height, round, timestamp, public_key)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::varchar[])
       ON CONFLICT (slot) DO UPDATE SET height = EXCLUDED.height, round = EXCLUDED.round,
         timestamp = EXCLUDED.timestamp, public_key = EXCLUDED.public_key`,
      [
        slots.map((s) => s.slot),
        slots.map((s) => s.height),
        slots.map((s) => s.round),
        slots.map((s) => s.timestamp),
        slots.map((s) => s.publicKey),
      ],
    );
  }

  /** Rollback: forgets the slots recorded with blocks above `height`. */
  async deleteAbove(height: number, manager = this.database.manager): Promise<void> {
    await manager.query('DELETE FROM missed_slots WHERE height > $1', [height]);
  }

  async count(manager = this.database.manager): Promise<number> {
    const rows = (await manager.query('SELECT count(*)::int AS n FROM missed_slots')) as {
      n: number;
    }[];
    return rows[0]?.n ?? 0;
  }

  /** Replaces every row with `slots` in one transaction (the rebuild at boot). */
  async replaceAll(slots: readonly MissedSlot[]): Promise<void> {
    await this.database.transaction(async (manager) => {
      await manager.query('DELETE FROM missed_slots');
      for (let start = 0; start < slots.length; start += 10_000) {
        await this.save(slots.slice(start, start + 10_000), manager);
      }
    });
  }

  /** A delegate's missed slots, newest first, and how many there are. */
  async byDelegate(
    publicKey: string,
    page: { readonly offset: number; readonly limit: number },
    manager = this.database.manager,
  ): Promise<{ readonly slots: MissedSlot[]; readonly totalCount: number }> {
    const [rows, total] = await Promise.all([
      manager.query(
        `SELECT slot, height, round, timestamp, public_key FROM missed_slots
         WHERE public_key = $1 ORDER BY slot DESC OFFSET $2 LIMIT $3`,
        [publicKey, page.offset, page.limit],
      ) as Promise<MissedSlotRow[]>,
      manager.query('SELECT count(*)::int AS n FROM missed_slots WHERE public_key = $1', [
        publicKey,
      ]) as Promise<{ n: number }[]>,
    ]);
    return {
      slots: rows.map((row) => ({
        slot: Number(row.slot),
        height: Number(row.height),
        round: Number(row.round),
        timestamp: Number(row.timestamp),
        publicKey: row.public_key,
      })),
      totalCount: total[0]?.n ?? 0,
    };
  }
}
