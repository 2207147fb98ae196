import { DeserializationError, deserializeTransaction, type TransactionData } from '@lni/crypto';
import type { Logger } from '@lni/kernel';
import type { Admitted, PoolAdmission } from './pool-admission.js';
import type { PoolAnnouncer, PoolOrigin } from './pool-announcer.js';
import type { PoolEntry } from './pool-entry.js';
import type { PoolIndex } from './pool-index.js';
import type { PoolKeeper } from './pool-keeper.js';
import type { PoolLedger } from './pool-ledger.js';
import type { PoolReconciliation } from './pool-reconciliation.js';
import type { PoolRejection, PoolResult } from './pool-rejection.js';

export interface PoolIntakeDeps {
  readonly index: PoolIndex;
  readonly admission: PoolAdmission;
  readonly reconciliation: PoolReconciliation;
  readonly ledger: PoolLedger;
  readonly keeper: PoolKeeper;
  readonly announcer: PoolAnnouncer;
  readonly logger: Logger;
  /** Transactions taken from one request; the rest are refused. */
  readonly maxPerRequest: number;
}

/**
 * Transactions offered to the pool (the API, peers): judged, written to storage, then answered
 * and announced. What storage does not take leaves the pool again and is refused (`storage`).
 */
export class PoolIntake {
  readonly #deps: PoolIntakeDeps;

  constructor(deps: PoolIntakeDeps) {
    this.#deps = deps;
  }

  /** `addedAt` keeps the arrival time of transactions kept from before a restart. */
  async add(
    transactions: readonly TransactionData[],
    addedAt: number | undefined,
    origin: PoolOrigin,
  ): Promise<PoolResult> {
    const { admission, announcer, index, logger, maxPerRequest: limit } = this.#deps;
    const taken = transactions.slice(0, limit);
    const excess: PoolRejection[] = transactions.slice(limit).map((tx, i) => ({
      index: limit + i,
      ...(tx?.id !== undefined && { id: tx.id }),
      reason: 'request.tooMany',
      message: `only ${limit} transactions are taken per request`,
    }));
    const now = addedAt ?? this.#deps.ledger.now();
    const verdicts = await admission.verify(taken);
    const judged = admission.admitAll(taken, () => now, verdicts);
    const kept = await this.#keep(judged.admitted);
    const rejected = [...judged.rejected, ...excess, ...kept.refused];
    if (rejected.length > 0) {
      logger.debug(
        { accepted: kept.entries.length, rejected: rejected.map((r) => r.reason) },
        'Transactions refused by the pool',
      );
    }
    rejected.sort((a, b) => a.index - b.index);
    announcer.added(kept.entries, origin);
    announcer.settle((id) => index.has(id));
    return { accepted: kept.entries.map((entry) => entry.id), rejected };
  }

  /** Transactions as hex wire bytes (peers); malformed ones are refused by their position. */
  async addSerialized(
    hexes: readonly string[],
    addedAt: number | undefined,
    origin: PoolOrigin,
  ): Promise<PoolResult> {
    const parsed: (TransactionData | PoolRejection)[] = hexes.map((hex, index) => {
      try {
        return deserializeTransaction(Buffer.from(hex, 'hex'));
      } catch (error) {
        if (!(error instanceof DeserializationError)) throw error;
        return { index, reason: 'malformed', message: error.message };
      }
    });
    const valid = parsed.filter((item): item is TransactionData => !('reason' in item));
    const indexes = parsed.flatMap((item, index) => ('reason' in item ? [] : [index]));
    const result = await this.add(valid, addedAt, origin);
    return {
      accepted: result.accepted,
      rejected: [
        ...parsed.filter((item): item is PoolRejection => 'reason' in item),
        ...result.rejected.map((r) => ({ ...r, index: indexes[r.index] as number })),
      ].sort((a, b) => a.index - b.index),
    };
  }

  async #keep(
    admitted: readonly Admitted[],
  ): Promise<{ entries: readonly PoolEntry[]; refused: PoolRejection[] }> {
    const entries = admitted.map((item) => item.entry);
    try {
      await this.#deps.keeper.keep(entries);
      return { entries, refused: [] };
    } catch (error) {
      this.#deps.logger.error(
        { err: error, transactions: admitted.length },
        'Pool could not keep transactions in storage; refused them',
      );
      this.#deps.reconciliation.undo(entries);
      const message = `not kept: storage failed (${(error as Error).message})`;
      return {
        entries: [],
        refused: admitted.map(({ index, entry }) => ({
          index,
          id: entry.id,
          reason: 'storage',
          message,
        })),
      };
    }
  }
}
