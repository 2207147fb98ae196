import type { Direction, Sighting } from './sightings.js';

/** What the store needs of the node's database: one parameterised statement at a time. */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** One page of an address's sightings and how many it has. */
export interface SightingPage {
  readonly sightings: readonly Sighting[];
  readonly totalCount: number;
}

interface SightingRow {
  address: string;
  transaction_id: string;
  block_height: number;
  amount: string;
  direction: Direction;
  total_count: string;
}

/** Reads and writes `address_watch_sightings`; reads with the node's connection. */
export class SightingStore {
  constructor(private readonly database: () => Queryable) {}

  /**
   * Writes with `transaction`, the block's own. Idempotent: a block stored again (after a
   * rollback and a resync) records nothing twice.
   */
  async record(sightings: readonly Sighting[], transaction: Queryable): Promise<void> {
    for (const sighting of sightings) {
      await transaction.query(
        `INSERT INTO address_watch_sightings
           (address, transaction_id, block_height, amount, direction)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [
          sighting.address,
          sighting.transactionId,
          sighting.height,
          sighting.amount.toString(),
          sighting.direction,
        ],
      );
    }
  }

  /** Newest first; the total is a column of the page, so one statement answers both. */
  async page(address: string, offset: number, limit: number): Promise<SightingPage> {
    const rows = (await this.database().query(
      `SELECT address, transaction_id, block_height, amount, direction,
              count(*) OVER () AS total_count
         FROM address_watch_sightings WHERE address = $1
        ORDER BY block_height DESC, transaction_id, direction
        LIMIT $2 OFFSET $3`,
      [address, limit, offset],
    )) as SightingRow[];
    const totalCount =
      rows[0] !== undefined ? Number(rows[0].total_count) : await this.count(address);
    return {
      totalCount,
      sightings: rows.map((row) => ({
        address: row.address,
        transactionId: row.transaction_id,
        height: Number(row.block_height),
        amount: BigInt(row.amount),
        direction: row.direction,
      })),
    };
  }

  /** For a page past the end, which has no row to carry the total. */
  private async count(address: string): Promise<number> {
    const rows = (await this.database().query(
      'SELECT count(*) AS n FROM address_watch_sightings WHERE address = $1',
      [address],
    )) as { n: string }[];
    return Number(rows[0]?.n ?? 0);
  }
}
