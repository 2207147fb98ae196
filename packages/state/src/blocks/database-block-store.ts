import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  deserializeTransaction,
  serializeTransaction,
  transactionToJson,
  type BlockHeader,
  type TransactionData,
} from '@lni/crypto';
import type {
  BlockStorage,
  BlockWithTransactions,
  DatabaseConnection,
  RoundStorage,
  SerializedTransaction,
  Service,
  StoredTransaction,
} from '@lni/database';
import type { EntityManager } from '@lni/database/contracts';
import type { MissedSlotStorage } from '../storage/missed-slot-storage.js';
import type { AppliedBlockEvent } from './chain-events.js';
import type { BlockCommit } from './committed-block.js';
import type { ElectionLog } from '../rounds/election-log.js';
import type { MissedSlotLog } from '../production/missed-slots.js';
import { roundRows } from '../rounds/stored-rounds.js';
import { lastBlockOf, type LastBlock } from '../wallets/last-block.js';
import type { WalletTableWriter } from '../wallets/table/wallet-table-writer.js';
import type {
  BlockStore,
  FullBlock,
  RevertedState,
  StoredLock,
  StoredWireBlock,
  WireBlockSource,
} from './block-store.js';

export interface DatabaseBlockStoreDeps {
  readonly database: DatabaseConnection;
  readonly blockStorage: Service<BlockStorage>;
  /** With it, the store of the processor keeps each round's delegates with the block that elected them. */
  readonly rounds?: {
    readonly storage: Service<RoundStorage>;
    readonly elections: ElectionLog;
  };
  /** With it, the slots missed before each block are stored with the block. */
  readonly missedSlots?: {
    readonly storage: Service<MissedSlotStorage>;
    readonly log: MissedSlotLog;
  };
  /** With it, each block is stored in the transaction other plugins join (see CommittedBlock). */
  readonly blockCommit?: BlockCommit;
  /** With it, the wallets each block changes and the head row are written with the block. */
  readonly walletTable?: WalletTableWriter;
}

/** The BlockStore on @lni/database: transactions travel as their serialized bytes. */
export class DatabaseBlockStore implements BlockStore, WireBlockSource {
  readonly #database: DatabaseConnection;
  readonly #storage: Service<BlockStorage>;
  readonly #rounds: DatabaseBlockStoreDeps['rounds'];
  readonly #missedSlots: DatabaseBlockStoreDeps['missedSlots'];
  readonly #blockCommit: BlockCommit | undefined;
  readonly #walletTable: WalletTableWriter | undefined;

  constructor({
    database,
    blockStorage,
    rounds,
    missedSlots,
    blockCommit,
    walletTable,
  }: DatabaseBlockStoreDeps) {
    this.#walletTable = walletTable;
    this.#database = database;
    this.#storage = blockStorage;
    this.#rounds = rounds;
    this.#missedSlots = missedSlots;
    this.#blockCommit = blockCommit;
  }

  async lastBlock(): Promise<FullBlock | undefined> {
    const stored = await this.#storage.getLastBlock();
    return stored && { ...stored };
  }

  async blockById(id: string): Promise<FullBlock | undefined> {
    const stored = await this.#storage.getBlockById(id);
    if (!stored) return undefined;
    const transactions = await this.#storage.getTransactionsByBlockId(id);
    return withTransactions(stored, transactions);
  }

  async blocksInRange(from: number, to: number): Promise<FullBlock[]> {
    const [blocks, transactions] = await Promise.all([
      this.#storage.getBlocksByHeightRange(from, to),
      this.#storage.getSerializedTransactionsByHeightRange(from, to),
    ]);
    const byHeight = new Map<number, SerializedTransaction[]>();
    for (const tx of transactions) {
      const list = byHeight.get(tx.blockHeight);
      if (list) list.push(tx);
      else byHeight.set(tx.blockHeight, [tx]);
    }
    return blocks.map((block) => withTransactions(block, byHeight.get(block.height) ?? []));
  }

  async wireBlocksInRange(
    from: number,
    to: number,
    withTransactions: boolean,
  ): Promise<StoredWireBlock[]> {
    const [blocks, transactions] = await Promise.all([
      this.#storage.getBlocksByHeightRange(from, to),
      withTransactions ? this.#storage.getSerializedTransactionsByHeightRange(from, to) : [],
    ]);
    const byHeight = new Map<number, Buffer[]>();
    for (const tx of transactions) {
      const bytes = Buffer.from(
        tx.serialized.buffer,
        tx.serialized.byteOffset,
        tx.serialized.byteLength,
      );
      const list = byHeight.get(tx.blockHeight);
      if (list) list.push(bytes);
      else byHeight.set(tx.blockHeight, [bytes]);
    }
    return blocks.map((block) => ({
      block: { ...block },
      transactions: byHeight.get(block.height) ?? [],
    }));
  }

  async transactionById(id: string): Promise<StoredLock | undefined> {
    const stored = await this.#storage.getTransactionById(id);
    return (
      stored && {
        transaction: deserializeTransaction(stored.serialized),
        timestamp: stored.timestamp,
      }
    );
  }

  async save(
    block: FullBlock,
    serialized?: readonly Uint8Array[],
    events: readonly AppliedBlockEvent[] = [],
  ): Promise<void> {
    const rounds = this.#rounds;
    const elected = rounds?.elections.electedBy(block.height);
    const missed = this.#missedSlots?.log.missedAt(block.height) ?? [];
    const stored = withStoredTransactions(block, serialized);
    const commit = this.#blockCommit;
    const walletTable = this.#walletTable;
    if (!elected && missed.length === 0 && !commit?.joined && !walletTable) {
      return this.#storage.saveBlocks([stored]);
    }
    let committed: (() => void) | undefined;
    const write = async (manager: EntityManager) => {
      const [, walletChanges] = await Promise.all([
        this.#storage.saveBlocks([stored], manager),
        // The wallets' rows and hash are made while PostgreSQL inserts the block: the insert
        // is on its way before the next turn of the event loop.
        walletTable && nextTurn().then(() => walletTable.changesOf(block, changedBy(events))),
      ]);
      if (rounds && elected) await rounds.storage.saveRound(roundRows(elected), manager);
      await this.#missedSlots?.storage.save(missed, manager);
      if (walletTable && walletChanges) committed = await walletTable.write(manager, walletChanges);
    };
    if (commit) await commit.run({ block, events }, write);
    else await this.#database.transaction(write);
    committed?.();
  }

  async deleteAbove(height: number, reverted?: RevertedState): Promise<void> {
    const rounds = this.#rounds;
    const missedSlots = this.#missedSlots;
    const walletTable = reverted && this.#walletTable;
    if (!rounds && !missedSlots && !walletTable) {
      await this.#storage.deleteBlocksAbove(height);
      return;
    }
    let committed: (() => void) | undefined;
    await this.#database.transaction(async (manager) => {
      await this.#storage.deleteBlocksAbove(height, manager);
      await rounds?.storage.deleteRoundsFrom(rounds.elections.latestRoundAt(height) + 1, manager);
      await missedSlots?.storage.deleteAbove(height, manager);
      if (walletTable && reverted) {
        committed = await walletTable.writeChanges(manager, reverted.tip, reverted.changed);
      }
    });
    committed?.();
  }

  async lastForgedBy(
    generatorPublicKey: string,
    belowHeight: number,
  ): Promise<LastBlock | undefined> {
    const stored = await this.#storage.getLastBlockForgedBy(generatorPublicKey, belowHeight);
    return stored && lastBlockOf(stored);
  }
}

/** The addresses a block changed, as its `wallets.changed` event names them. */
function changedBy(events: readonly AppliedBlockEvent[]): readonly string[] {
  for (const { event, payload } of events) {
    if (event === 'wallets.changed') return payload.addresses;
  }
  return [];
}

function withTransactions(
  block: BlockHeader,
  transactions: readonly Pick<SerializedTransaction, 'serialized'>[],
): FullBlock {
  return {
    ...block,
    transactions: transactions.map((tx) => deserializeTransaction(tx.serialized)),
  };
}

/**
 * The unit the storage saves: the block's header fields, and its transactions in order, each in
 * the bytes it arrived in when they are known.
 */
function withStoredTransactions(
  block: FullBlock,
  serialized?: readonly Uint8Array[],
): BlockWithTransactions {
  const { transactions = [] } = block;
  return {
    block,
    transactions: transactions.map((tx, sequence) =>
      storedTransactionOf(tx, block, sequence, serialized?.[sequence]),
    ),
  };
}

/**
 * A transaction as the block store writes it: its place in its block, its bytes (`serialized`
 * when the caller has them, else serialized here), and its asset as clients read it (amounts
 * as decimal strings).
 */
export function storedTransactionOf(
  tx: TransactionData,
  block: Pick<FullBlock, 'id' | 'height' | 'timestamp'>,
  sequence: number,
  serialized?: Uint8Array,
): StoredTransaction {
  return {
    id: tx.id as string,
    blockId: block.id,
    blockHeight: block.height,
    sequence,
    version: tx.version,
    timestamp: tx.timestamp ?? block.timestamp,
    nonce: tx.nonce,
    senderPublicKey: tx.senderPublicKey,
    recipientId: tx.recipientId ?? null,
    type: tx.type,
    typeGroup: tx.typeGroup,
    vendorField: tx.vendorField ?? null,
    amount: tx.amount,
    fee: tx.fee,
    asset: transactionToJson(tx).asset ?? null,
    serialized: serialized ?? serializeTransaction(tx),
  };
}
