import type { Service } from '@lni/database';
import type { PoolStorage } from '../storage/pool-storage.js';
import type { Logger } from '@lni/kernel';
import type { LegacyPoolFile } from './legacy-pool-file.js';
import type { RestoreResult, TransactionPool } from './transaction-pool.js';

export interface PoolRecoveryDeps {
  readonly transactionPool: Pick<TransactionPool, 'restore' | 'flush'>;
  readonly poolStorage: Pick<Service<PoolStorage>, 'all' | 'removeConfirmed'>;
  readonly legacyFile: LegacyPoolFile;
  readonly logger: Logger;
}

export interface RecoverySummary {
  readonly restored: number;
  /** Kept transactions a stored block already carries. */
  readonly confirmed: number;
  /** Kept transactions the chain no longer accepts, by reason. */
  readonly dropped: Readonly<Record<string, number>>;
}

/**
 * At boot, after the state rebuild: brings back what the pool held when the node stopped,
 * however it stopped (the pool is in the database as it is accepted), each transaction judged
 * again on the chain as it now is. An old `pool.json` is taken in once and removed.
 */
export class PoolRecovery {
  readonly #deps: PoolRecoveryDeps;

  constructor(deps: PoolRecoveryDeps) {
    this.#deps = deps;
  }

  async recover(): Promise<RecoverySummary> {
    const { transactionPool, poolStorage, logger } = this.#deps;
    const confirmed = (await poolStorage.removeConfirmed()).length;
    const kept = await poolStorage.all();
    const fromStorage = await transactionPool.restore(kept, { inStorage: true });
    const fromFile = await this.#takeLegacyFile();
    // Storage holds exactly the pool once boot is over.
    await transactionPool.flush();
    const dropped: Record<string, number> = {};
    for (const { reason } of [...fromStorage.dropped, ...fromFile.dropped]) {
      dropped[reason] = (dropped[reason] ?? 0) + 1;
    }
    const droppedCount = fromStorage.dropped.length + fromFile.dropped.length;
    const summary = {
      restored: fromStorage.restored + fromFile.restored,
      confirmed,
      dropped,
    };
    if (droppedCount > 0) {
      logger.info(
        { dropped: droppedCount, reasons: dropped },
        'Pool transactions the chain no longer accepts were dropped',
      );
    }
    if (kept.length + confirmed > 0 || fromFile.restored + fromFile.dropped.length > 0) {
      logger.info({ restored: summary.restored, confirmed }, 'Pool restored');
    }
    return summary;
  }

  async #takeLegacyFile(): Promise<RestoreResult> {
    const { legacyFile, transactionPool, logger } = this.#deps;
    let saved;
    try {
      saved = await legacyFile.read();
    } catch (error) {
      logger.warn({ err: error, path: legacyFile.path }, 'Old pool file unreadable; removed');
      await legacyFile.remove();
      return { restored: 0, dropped: [] };
    }
    // Written to the database before the file goes, so a crash in between loses nothing.
    const result = await transactionPool.restore(saved, { inStorage: false });
    await legacyFile.remove();
    if (saved.length > 0) {
      logger.info(
        { path: legacyFile.path, saved: saved.length, restored: result.restored },
        'Old pool file moved into the database and removed',
      );
    }
    return result;
  }
}
