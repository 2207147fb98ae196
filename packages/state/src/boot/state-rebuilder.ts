import { KernelError, ProgressLog, type Logger } from '@lni/kernel';
import type { BlockProcessor } from '../blocks/block-processor.js';
import type { BlockStore, FullBlock } from '../blocks/block-store.js';
import { voteWeight } from '../dpos/vote-balances.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';

/** State rebuilt from storage disagrees with itself or the stored rounds: the node must not start. */
export class StateConsistencyError extends KernelError {
  constructor(
    message: string,
    readonly address: string,
  ) {
    super('ERR_STATE_INCONSISTENT', message);
  }
}

const DEFERRED_DURING_REPLAY = ['balance', 'nonce'];

/** A further check after a rebuild (e.g. DPoS against the stored rounds); throws StateConsistencyError. */
export type ConsistencyCheck = (wallets: WalletRepository) => Promise<void> | void;

export interface StateRebuilderDeps {
  readonly blockStore: Pick<BlockStore, 'lastBlock' | 'blocksInRange'>;
  readonly blockProcessor: Pick<BlockProcessor, 'settle' | 'applyToState'>;
  readonly wallets: WalletRepository;
  readonly logger: Logger;
  /** Blocks read from storage per query. */
  readonly rebuildBatchSize?: number;
  readonly consistencyChecks?: readonly ConsistencyCheck[];
  /** Told after each batch how far the replay is (a progress bar); the log line is kept too. */
  readonly onProgress?: (height: number, lastHeight: number) => void;
}

export interface RebuildResult {
  readonly height: number;
  readonly transactions: number;
  readonly ms: number;
}

/**
 * Boot: replays every stored block onto empty wallets, in batches read ahead of the replay, then
 * checks the result. Stored blocks were verified when they were applied, so signatures are not
 * checked again; every transaction still goes through its handler's rules.
 */
export class StateRebuilder {
  readonly #deps: StateRebuilderDeps;

  constructor(deps: StateRebuilderDeps) {
    this.#deps = deps;
  }

  async rebuild(): Promise<RebuildResult> {
    const { blockStore, blockProcessor, logger, wallets } = this.#deps;
    const started = performance.now();
    if (wallets.size > 0) {
      throw new StateConsistencyError('rebuild: the wallet repository is not empty', '');
    }
    const last = await blockStore.lastBlock();
    if (!last) {
      logger.info('No stored blocks; the chain starts at its genesis block');
      return { height: 0, transactions: 0, ms: 0 };
    }
    let transactions: number;
    // Nearly every transaction moves balances and nonces: those two indexes are sorted once, after.
    const resumeIndexes = wallets.deferIndexes(DEFERRED_DURING_REPLAY);
    try {
      transactions = await this.#replay(last.height);
    } finally {
      resumeIndexes();
    }
    blockProcessor.settle();
    await this.check();
    const ms = Math.round(performance.now() - started);
    logger.info({ height: last.height, transactions, wallets: wallets.size, ms }, 'State rebuilt');
    return { height: last.height, transactions, ms };
  }

  /** Applies the stored blocks up to `lastHeight`, reading each batch while the one before applies. */
  async #replay(lastHeight: number): Promise<number> {
    const { blockStore, blockProcessor, logger } = this.#deps;
    const batch = this.#deps.rebuildBatchSize ?? 1000;
    let transactions = 0;
    // One line every few seconds, not one per batch: a long chain is thousands of batches.
    const progress = new ProgressLog({
      logger,
      message: 'Rebuilding state',
      doneMessage: 'Stored blocks replayed',
      positionField: 'height',
      unit: 'blocks',
    });
    let nextRead: Promise<FullBlock[]> = blockStore.blocksInRange(1, Math.min(batch, lastHeight));
    for (let from = 1; from <= lastHeight; from += batch) {
      const blocks = await nextRead;
      const following = from + batch;
      // Reads the next batch while this one is replayed.
      nextRead =
        following <= lastHeight
          ? blockStore.blocksInRange(following, Math.min(following + batch - 1, lastHeight))
          : Promise.resolve([]);
      for (const block of blocks) {
        try {
          blockProcessor.applyToState(block);
        } catch (error) {
          throw new StateConsistencyError(
            `rebuild: stored block ${block.height} (${block.id}) does not apply: ${(error as Error).message}`,
            block.generatorPublicKey,
          );
        }
        transactions += block.numberOfTransactions;
      }
      const reached = blocks[blocks.length - 1]?.height ?? from;
      progress.update(reached, lastHeight);
      this.#deps.onProgress?.(reached, lastHeight);
    }
    progress.finish();
    return transactions;
  }

  /** Vote balances equal the sum of their voters' weight; then the injected checks. */
  async check(): Promise<void> {
    const { wallets } = this.#deps;
    const totals = new Map<string, bigint>();
    for (const voter of wallets.index('attributes.vote').scan(undefined, undefined, false)) {
      const key = voter.attributes.vote as string;
      totals.set(key, (totals.get(key) ?? 0n) + voteWeight(voter));
    }
    for (const delegate of wallets
      .index('attributes.delegate.username')
      .scan(undefined, undefined, false)) {
      const expected = (delegate.publicKey && totals.get(delegate.publicKey)) || 0n;
      const actual = delegate.attributes.delegate?.voteBalance;
      if (actual !== expected) {
        throw new StateConsistencyError(
          `wallet ${delegate.address}: voteBalance ${actual} differs from its voters' ${expected}`,
          delegate.address,
        );
      }
    }
    for (const check of this.#deps.consistencyChecks ?? []) await check(wallets);
  }
}
