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
}

/** What boot did: the chain started at genesis, or the stored chain replayed to `height`. */
export type BootOutcome =
  { readonly started: 'genesis' } | { readonly started: 'rebuilt'; readonly height: number };

/**
 * The ledger's boot sequence, in order: an empty store gets the genesis block; otherwise the
 * stored chain is replayed onto empty wallets, the rounds and missed slots storage lacks are
 * written, and the processor resumes at the tip. Then the pool is restored.
 */
export class LedgerBoot {
  readonly #deps: LedgerBootDeps;

  constructor(deps: LedgerBootDeps) {
    this.#deps = deps;
  }

  async run(): Promise<BootOutcome> {
    const outcome =
      (await this.#deps.blockStore.lastBlock()) === undefined
        ? await this.#startAtGenesis()
        : await this.#rebuild();
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

  async #rebuild(): Promise<BootOutcome> {
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
    await blockProcessor.initialize();
    return { started: 'rebuilt', height: rebuilt.height };
  }
}
