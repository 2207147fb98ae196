import type { Service } from '@lni/database';
import type { PoolStorage } from '../storage/pool-storage.js';
import type { Logger } from '@lni/kernel';
import type { BlockProcessor } from '../blocks/block-processor.js';
import type { BlockStore, FullBlock } from '../blocks/block-store.js';
import { PoolRecovery } from '../pool/pool-recovery.js';
import type { LegacyPoolFile } from '../pool/legacy-pool-file.js';
import type { TransactionPool } from '../pool/transaction-pool.js';
import type { MissedSlotTracker } from '../production/missed-slots.js';
import { storeMissedSlots } from '../production/stored-missed-slots.js';
import type { RoundKeeper } from '../rounds/round-keeper.js';
import { storeMissingRounds } from '../rounds/stored-rounds.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import { StateRebuilder } from './state-rebuilder.js';
import type { DatabaseConnection } from '@lni/database/contracts';
import {
  WalletTableUnusable,
  type WalletTableLoader,
} from '../wallets/table/wallet-table-loader.js';
import type { WalletTableWriter } from '../wallets/table/wallet-table-writer.js';

/** The wallets table: loaded at boot instead of a replay when `load`, written after a rebuild. */
export interface BootWalletTable {
  readonly load: boolean;
  readonly loader: Pick<WalletTableLoader, 'load'>;
  readonly writer: Pick<WalletTableWriter, 'writeAll'>;
  readonly database: Pick<DatabaseConnection, 'transaction'>;
}

export interface LedgerBootDeps {
  readonly blockStore: BlockStore;
  readonly blockProcessor: Pick<
    BlockProcessor,
    'settle' | 'applyToState' | 'process' | 'initialize'
  >;
  readonly wallets: WalletRepository;
  readonly genesisBlock: FullBlock;
  readonly roundKeeper: Pick<RoundKeeper, 'elections' | 'latestRoundAt'>;
  readonly roundStorage: Parameters<typeof storeMissingRounds>[0];
  readonly missedSlots: Pick<MissedSlotTracker, 'total' | 'all'>;
  readonly missedSlotStorage: Parameters<typeof storeMissedSlots>[0];
  readonly transactionPool: Pick<TransactionPool, 'restore' | 'flush'>;
  readonly poolStorage: Pick<Service<PoolStorage>, 'all' | 'removeConfirmed'>;
  readonly legacyPoolFile: LegacyPoolFile;
  readonly logger: Logger;
  readonly rebuildBatchSize: number;
  readonly walletTable?: BootWalletTable;
  /**
   * The database plugin's integrity check of the stored chain, taken over by this boot so that
   * it runs while the wallets table is read: awaited before a replay, and before a loaded state
   * is kept. Rejects with what is wrong with the chain.
   */
  readonly chainVerified?: () => Promise<unknown>;
}

/** What boot did: the chain started at genesis, or the stored chain replayed to `height`. */
export type BootOutcome =
  | { readonly started: 'genesis' }
  | { readonly started: 'loaded' | 'rebuilt'; readonly height: number };

/**
 * The ledger's boot sequence, in order: an empty store gets the genesis block; otherwise the
 * wallets table is loaded when it stands for the stored chain, or else the stored chain is
 * replayed onto empty wallets, the rounds and missed slots storage lacks are written, and the
 * whole wallets table is written anew; the processor resumes at the tip. Then the pool is
 * restored.
 */
export class LedgerBoot {
  readonly #deps: LedgerBootDeps;

  constructor(deps: LedgerBootDeps) {
    this.#deps = deps;
  }

  async run(): Promise<BootOutcome> {
    const verified = this.#deps.chainVerified?.() ?? Promise.resolve();
    // Awaited on every path below; a failure while the table is read must not go unhandled.
    verified.catch(() => undefined);
    const last = await this.#deps.blockStore.lastBlock();
    let outcome: BootOutcome | undefined;
    if (last === undefined) {
      await verified;
      outcome = await this.#startAtGenesis();
    } else {
      outcome = await this.#load(last, verified);
      if (!outcome) {
        await verified;
        outcome = await this.#rebuild(last);
      }
    }
    await new PoolRecovery({
      transactionPool: this.#deps.transactionPool,
      poolStorage: this.#deps.poolStorage,
      legacyFile: this.#deps.legacyPoolFile,
      logger: this.#deps.logger,
    }).recover();
    return outcome;
  }

  async #startAtGenesis(): Promise<BootOutcome> {
    await this.#deps.blockProcessor.process(this.#deps.genesisBlock);
    this.#deps.logger.info({ height: 1 }, 'Genesis block applied');
    return { started: 'genesis' };
  }

  /** The state from the wallets table, or undefined (said in one line) when it cannot be used. */
  async #load(last: FullBlock, verified: Promise<unknown>): Promise<BootOutcome | undefined> {
    const { walletTable: table, logger, blockProcessor } = this.#deps;
    if (!table) return undefined;
    if (!table.load) {
      logger.info({ reason: 'walletTable.load is false' }, 'Wallet table not loaded, rebuilding');
      return undefined;
    }
    const started = performance.now();
    try {
      const { wallets, phases } = await table.loader.load(last);
      // The chain the table stands for passed its check before the node goes on with it.
      const waited = performance.now();
      await verified;
      const waitedMs = Math.round(performance.now() - waited);
      await blockProcessor.initialize();
      const ms = Math.round(performance.now() - started);
      // The phases (read, parse, hash, restore, then the wait for the chain's integrity check)
      // tell an operator where a slow start went.
      logger.info(
        { height: last.height, wallets, ms, phases: { ...phases, integrity: waitedMs } },
        'State loaded',
      );
      return { started: 'loaded', height: last.height };
    } catch (error) {
      if (!(error instanceof WalletTableUnusable)) throw error;
      logger.warn({ reason: error.message }, 'Wallet table not usable, rebuilding');
      return undefined;
    }
  }

  async #rebuild(last: FullBlock): Promise<BootOutcome> {
    const { blockStore, blockProcessor, wallets, logger, roundKeeper } = this.#deps;
    // The rebuilder logs "State rebuilt" with its figures.
    const rebuilt = await new StateRebuilder({
      blockStore,
      blockProcessor,
      wallets,
      logger,
      rebuildBatchSize: this.#deps.rebuildBatchSize,
    }).rebuild();
    const roundsStored = await storeMissingRounds(
      this.#deps.roundStorage,
      roundKeeper.elections(),
      roundKeeper.latestRoundAt(rebuilt.height),
    );
    if (roundsStored > 0) logger.info({ rounds: roundsStored }, 'Rounds stored');
    const missedStored = await storeMissedSlots(
      this.#deps.missedSlotStorage,
      this.#deps.missedSlots,
    );
    if (missedStored > 0) logger.info({ slots: missedStored }, 'Missed slots stored');
    const table = this.#deps.walletTable;
    if (table) {
      const started = performance.now();
      await table.writer.writeAll(table.database, last);
      const ms = Math.round(performance.now() - started);
      logger.info({ height: last.height, wallets: wallets.size, ms }, 'Wallet table written');
    }
    await blockProcessor.initialize();
    return { started: 'rebuilt', height: rebuilt.height };
  }
}
