import {
  breakingShowsForgery,
  addressFromPublicKey,
  SlotClock,
  verifyBlock,
  verifyBlockInPool,
  type BlockVerification,
  type Milestones,
  type VerifyBlockOptions,
  type SignerRegistrations,
  type VerificationPool,
} from '@lni/crypto';
import type { EventBus, Logger } from '@lni/kernel';
import type { LedgerState } from '../handlers/transaction-handler.js';
import type { ElectionLog } from '../rounds/election-log.js';
import { signerRegistrations } from '../wallets/signer-registrations.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import type { LastBlock } from '../wallets/last-block.js';
import '../contracts/events.js';
import type { BlockHook } from './block-hook.js';
import { checkPlacement, type PlacementDeps } from './block-placement.js';
import { BlockRejectedError } from './block-rejected-error.js';
import type { BlockStore, FullBlock, StoredLock } from './block-store.js';
import { tellApplied, tellReverted, type ChainListener } from './chain-listener.js';
import { verifiedBefore, type VerifiedTransactions } from './verified-transactions.js';
import { appliedBlockEvents, emitBlockApplied, type AppliedBlockEvent } from './chain-events.js';
import { creditGenerator, debitGenerator } from './generator-credit.js';
import { applyTransaction, revertTransaction, ruleOf } from './transaction-steps.js';

/** Blocks at most this many slots old are logged at info when applied. */
const RECENT_SLOTS = 2;

export interface BlockProcessorDeps extends PlacementDeps {
  readonly wallets: WalletRepository;
  readonly milestones: Milestones;
  /**
   * With `nethash`, the genesis block is trusted when its payload hash is the nethash (see
   * #verifyGenesis); without it, the genesis block is verified like any other.
   */
  readonly network: { readonly pubKeyHash: number; readonly nethash?: string };
  readonly blockStore: BlockStore;
  readonly logger: Logger;
  /** Signatures are checked on its worker threads; without it, on this thread. */
  readonly verificationPool?: VerificationPool;
  readonly events?: EventBus;
  /** Which round a block elected, announced as `round.applied`. */
  readonly elections?: ElectionLog;
  readonly blockHooks?: readonly BlockHook[];
  /** Told how long each block took to verify, apply and store, in seconds (a metric). */
  readonly applyDurations?: { observe(seconds: number): void };
  /** Told of each block applied and each run of blocks reverted (the transaction pool). */
  readonly chainListeners?: readonly ChainListener[];
  /** Transactions verified before they reached a block (the pool's); see #verify. */
  readonly verifiedTransactions?: VerifiedTransactions;
}

/**
 * Applies and reverts blocks. A block changes state and storage as one unit: every check runs
 * first, then its transactions apply inside a wallet checkpoint, and the storage write comes
 * last; any failure rolls the checkpoint back. Once stored, the change is announced on the
 * event bus, then told to the chain listeners. Calls run one at a time, in call order.
 */
export class BlockProcessor {
  readonly #deps: BlockProcessorDeps;
  readonly #clock: SlotClock;
  #lastBlock: FullBlock | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(deps: BlockProcessorDeps) {
    this.#deps = deps;
    this.#clock = new SlotClock(deps.milestones);
  }

  /** Remembered by @lni/crypto, so repeated senders cost a map lookup. */
  #addressOf(publicKey: string): string {
    return addressFromPublicKey(publicKey, this.#deps.network.pubKeyHash);
  }

  /** The chain's tip; undefined before the genesis block. */
  get lastBlock(): FullBlock | undefined {
    return this.#lastBlock;
  }

  /** Takes the tip from storage (state must already match it, e.g. after a rebuild). */
  async initialize(): Promise<void> {
    this.#lastBlock = await this.#deps.blockStore.lastBlock();
  }

  /**
   * Verifies and applies the next block; throws BlockRejectedError with nothing changed.
   * `serialized`: the wire bytes its transactions were read from, in block order, checked and
   * stored as they are instead of being serialized again.
   */
  process(block: FullBlock, serialized?: readonly Buffer[]): Promise<void> {
    return this.#exclusive(() => this.#process(block, serialized));
  }

  /** Reverts every block above `height` (newest first); returns them, newest first. */
  revertTo(height: number): Promise<FullBlock[]> {
    return this.#exclusive(() => this.#revertTo(height));
  }

  /**
   * Applies a block to state only, without verification or storage (replaying stored, already
   * verified blocks at boot); the replay calls `settle` once at its end. Throws
   * TransactionRuleError when state does not allow it.
   */
  applyToState(block: FullBlock): void {
    const ctx = this.#context(block);
    for (const tx of block.transactions ?? []) {
      applyTransaction(tx, this.#addressOf(tx.senderPublicKey), ctx);
    }
    creditGenerator(block, ctx);
    for (const hook of this.#deps.blockHooks ?? []) hook.applied?.(block, ctx);
    this.#lastBlock = block;
  }

  /** Runs the hooks' `settled` (see BlockHook): once after a replay of stored blocks. */
  settle(): void {
    for (const hook of this.#deps.blockHooks ?? []) hook.settled?.();
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #process(block: FullBlock, serialized?: readonly Buffer[]): Promise<void> {
    const started = performance.now();
    checkPlacement(block, this.#lastBlock, this.#deps);
    const verification =
      block.height === 1 && this.#deps.network.nethash !== undefined
        ? await this.#verifyGenesis(block, this.#deps.network.nethash)
        : await this.#verify(block, serialized);
    const failure = verification.failures[0];
    if (failure) {
      const transaction = failure.transaction;
      throw new BlockRejectedError(
        failure.rule,
        `block ${block.height} ${failure.rule}: ${failure.message}`,
        block,
        transaction === undefined
          ? undefined
          : { index: transaction, id: block.transactions?.[transaction]?.id },
        { misbehaviour: breakingShowsForgery(failure.rule) },
      );
    }
    const { wallets, blockStore } = this.#deps;
    const checkpoint = wallets.checkpoint();
    let applied: AppliedBlockEvent[];
    try {
      this.#applyTransactions(block);
      applied = this.#appliedEvents(block, wallets.changedSince(checkpoint));
      await blockStore.save(block, serialized, applied);
    } catch (error) {
      wallets.rollback(checkpoint);
      if (error instanceof BlockRejectedError) throw error;
      throw new BlockRejectedError(
        'storage',
        `block ${block.height}: not stored`,
        block,
        undefined,
        {
          cause: error,
        },
      );
    }
    wallets.release(checkpoint);
    this.#lastBlock = block;
    const ms = performance.now() - started;
    this.#deps.applyDurations?.observe(ms / 1000);
    this.#logApplied(block, Math.round(ms));
    if (this.#deps.events) emitBlockApplied(this.#deps.events, applied);
    tellApplied(this.#deps.chainListeners ?? [], block, this.#deps.logger);
  }

  /**
   * A block of the last few slots is news to an operator (info); an older one arrives in a
   * sync, whose progress is logged at a steady rate instead, so it is logged at debug.
   */
  #logApplied(block: FullBlock, ms: number): void {
    const { milestones } = this.#deps;
    const ageMs = Date.now() - this.#clock.unixMs(block.timestamp);
    const recent = ageMs < RECENT_SLOTS * milestones.at(block.height).blocktime * 1000;
    const generator = this.#deps.wallets.byPublicKey(block.generatorPublicKey);
    this.#deps.logger[recent ? 'info' : 'debug'](
      {
        height: block.height,
        id: block.id,
        transactions: block.numberOfTransactions,
        generator: generator?.attributes.delegate?.username ?? block.generatorPublicKey,
        ms,
      },
      'Block applied',
    );
  }

  #applyTransactions(block: FullBlock): void {
    const ctx = this.#context(block);
    const transactions = block.transactions ?? [];
    for (let index = 0; index < transactions.length; index++) {
      const tx = transactions[index]!;
      try {
        applyTransaction(tx, this.#addressOf(tx.senderPublicKey), ctx);
      } catch (error) {
        const rule = ruleOf(error);
        if (rule === undefined) throw error;
        throw new BlockRejectedError(
          rule,
          `block ${block.height} transaction ${index} (${tx.id}): ${(error as Error).message}`,
          block,
          { index, id: tx.id },
          { cause: error },
        );
      }
    }
    creditGenerator(block, ctx);
    for (const hook of this.#deps.blockHooks ?? []) hook.applied?.(block, ctx);
    this.settle();
  }

  /**
   * Every rule of the block. Signatures the pool verified are not checked again while their
   * senders' registrations are unchanged (see verifiedBefore in verified-transactions.ts).
   */
  #verify(
    block: FullBlock,
    serialized?: readonly Buffer[],
  ): Promise<BlockVerification> | BlockVerification {
    const { milestones, verificationPool, verifiedTransactions } = this.#deps;
    const options: VerifyBlockOptions = {
      registrationsOf: (key) => this.#registrationsOf(key),
      ...(serialized && { serialized }),
      ...(verifiedTransactions && { verifiedBefore: verifiedBefore(verifiedTransactions) }),
    };
    return verificationPool
      ? verifyBlockInPool(block, milestones, verificationPool, options)
      : verifyBlock(block, milestones, options);
  }

  /**
   * The genesis block is configuration, and ARK 3.0 trusts it as such: the genesis blocks of
   * ARK's own networks predate 3.0's rules, so their ids and payload hashes (and, on mainnet and
   * testnet, the transactions' signatures) do not verify under them. What ties the block to the
   * network is the nethash, its payload hash; its transactions must still apply.
   */
  async #verifyGenesis(block: FullBlock, nethash: string): Promise<BlockVerification> {
    if (block.payloadHash !== nethash) {
      const message = `payloadHash ${block.payloadHash} is not the network's nethash ${nethash}`;
      return { verified: false, failures: [{ rule: 'payloadHash', message }] };
    }
    const { failures } = await this.#verify(block);
    if (failures.length > 0) {
      const rules = [...new Set(failures.map((failure) => failure.rule))];
      this.#deps.logger.info(
        { id: block.id, failures: failures.length, rules },
        'Genesis block trusted through the nethash, as ARK 3.0 does: it predates the 3.0 verification rules',
      );
    }
    return { verified: true, failures: [] };
  }

  #registrationsOf(senderPublicKey: string): SignerRegistrations {
    return signerRegistrations(this.#deps.wallets.get(this.#addressOf(senderPublicKey)));
  }

  async #revertTo(height: number): Promise<FullBlock[]> {
    const last = this.#lastBlock;
    if (!last || height >= last.height) return [];
    if (!Number.isSafeInteger(height) || height < 1) {
      throw new BlockRejectedError('height', `revert: height ${height} is below 1`, last);
    }
    const { wallets, blockStore, blockHooks = [] } = this.#deps;
    const loaded = await blockStore.blocksInRange(height, last.height);
    const target = loaded[0];
    const reverted = loaded.slice(1).reverse();
    if (target?.height !== height || reverted.length !== last.height - height) {
      throw new BlockRejectedError(
        'storage',
        `revert: blocks ${height}..${last.height} not all stored`,
        last,
      );
    }
    const previousLastBlocks = new Map<number, LastBlock | undefined>();
    for (const block of reverted) {
      previousLastBlocks.set(
        block.height,
        await blockStore.lastForgedBy(block.generatorPublicKey, block.height),
      );
    }
    const locks = await this.#locksReopenedBy(reverted);
    const checkpoint = wallets.checkpoint();
    let changed: string[];
    try {
      for (const block of reverted) {
        const ctx: LedgerState = {
          ...this.#context(block),
          lockTransaction: (id) => locks.get(id),
        };
        for (const hook of [...blockHooks].reverse()) hook.reverted?.(block, ctx);
        debitGenerator(block, ctx, previousLastBlocks.get(block.height));
        const transactions = block.transactions ?? [];
        for (let index = transactions.length - 1; index >= 0; index--) {
          revertTransaction(transactions[index]!, ctx);
        }
      }
      this.settle();
      changed = wallets.changedSince(checkpoint);
      await blockStore.deleteAbove(height, { tip: target, changed });
    } catch (error) {
      wallets.rollback(checkpoint);
      throw error;
    }
    wallets.release(checkpoint);
    this.#lastBlock = target;
    this.#deps.logger.warn(
      { from: last.height, to: height, blocks: reverted.length },
      'Blocks reverted',
    );
    const events = this.#deps.events;
    for (const block of reverted) events?.emit('block.reverted', { block });
    if (changed.length > 0) events?.emit('wallets.changed', { addresses: changed, height });
    const oldestFirst = [...reverted].reverse();
    await tellReverted(this.#deps.chainListeners ?? [], oldestFirst, this.#deps.logger);
    return reverted;
  }

  /** The lock transactions of the HTLC claims and refunds among `blocks`, from storage. */
  async #locksReopenedBy(blocks: readonly FullBlock[]): Promise<Map<string, StoredLock>> {
    const locks = new Map<string, StoredLock>();
    for (const block of blocks) {
      for (const tx of block.transactions ?? []) {
        const id = tx.asset?.claim?.lockTransactionId ?? tx.asset?.refund?.lockTransactionId;
        if (id === undefined || locks.has(id)) continue;
        const stored = await this.#deps.blockStore.transactionById(id);
        if (stored) locks.set(id, stored);
      }
    }
    return locks;
  }

  /** Signatures were verified in bulk before, so handlers skip them. */
  #context(block: FullBlock): LedgerState {
    return {
      repository: this.#deps.wallets,
      milestone: this.#deps.milestones.at(block.height),
      height: block.height,
      timestamp: block.timestamp,
      pubKeyHash: this.#deps.network.pubKeyHash,
      verifySignatures: false,
      genesis: block.height === 1,
    };
  }

  #appliedEvents(block: FullBlock, changed: readonly string[]): AppliedBlockEvent[] {
    const { elections, wallets } = this.#deps;
    return appliedBlockEvents(block, {
      ...(elections && { elections }),
      addressOf: (publicKey) => this.#addressOf(publicKey),
      usernameOf: (publicKey) => wallets.byPublicKey(publicKey)?.attributes.delegate?.username,
      changed,
    });
  }
}
