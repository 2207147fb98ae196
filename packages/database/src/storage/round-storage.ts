import type { EntityManager } from 'typeorm';
import type { DatabaseConnection } from '../connection/database.js';
import type { StoredRoundDelegate } from '../records.js';
import { roundDelegateFromRow } from './rows.js';

export interface RoundStorageDeps {
  readonly database: DatabaseConnection;
}

/** The delegates elected for each round, kept so that a restart does not recompute history. */
export class RoundStorage {
  private readonly database: DatabaseConnection;

  constructor({ database }: RoundStorageDeps) {
    this.database = database;
  }

  /**
   * Stores the delegates of the rounds they name, replacing whatever those rounds held: saving
   * a round again (a rebuild, a round elected anew after a fork) leaves exactly these rows.
   */
  async saveRound(delegates: readonly StoredRoundDelegate[], manager?: EntityManager) {
    if (delegates.length === 0) return;
    if (!manager) {
      await this.database.transaction((own) => this.saveRound(delegates, own));
      return;
    }
    const rounds = [...new Set(delegates.map((d) => d.round))];
    await manager.query('DELETE FROM rounds WHERE round = ANY($1::bigint[])', [rounds]);
    await manager.query(
      `INSERT INTO rounds (round, public_key, balance)
       SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::bigint[])`,
      [
        delegates.map((d) => d.round),
        delegates.map((d) => d.publicKey),
        delegates.map((d) => d.balance.toString()),
      ],
    );
  }

  /** The numbers of the rounds stored, ascending. */
  async storedRounds(manager = this.database.manager): Promise<number[]> {
    const rows = (await manager.query('SELECT DISTINCT round FROM rounds ORDER BY round')) as {
      round: string;
    }[];
    return rows.map((row) => Number(row.round));
  }

  async getRound(round: number, manager = this.database.manager) {
    const rows = (await manager.query(
      'SELECT round, public_key, balance FROM rounds WHERE round = $1 ORDER BY balance DESC, public_key',
      [round],
    )) as { round: string; public_key: string; balance: string }[];
    return rows.map(roundDelegateFromRow);
  }

  /** Rollback: forgets the rounds from `round` on. */
  async deleteRoundsFrom(round: number, manager: EntityManager = this.database.manager) {
    await manager.query('DELETE FROM rounds WHERE round >= $1', [round]);
  }
}
