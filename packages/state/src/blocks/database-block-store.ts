import {
  deserializeTransaction,
  serializeTransaction,
  transactionToJson,
  type TransactionData,
} from '@lni/crypto';
import type {
  BlockStorage,
  BlockWithTransactions,
  DatabaseConnection,
  SerializedTransaction,
  Service,
  StoredBlock,
  StoredTransaction,
} from '@lni/database';
import type { LastBlock } from '../wallets/wallet.js';
import type { BlockStore, FullBlock, StoredLock } from './block-store.js';

export interface DatabaseBlockStoreDeps {
  readonly database: DatabaseConnection;
  readonly blockStorage: Service<BlockStorage>;
}

/** The BlockStore on @lni/database: transactions travel as their serialized bytes. */
export class DatabaseBlockStore implements BlockStore {
  readonly #database: DatabaseConnection;
  readonly #storage: Service<BlockStorage>;

  constructor({ database, blockStorage }: DatabaseBlockStoreDeps) {
    this.#database = database;
    this.#storage = blockStorage;
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

  async transactionById(id: string): Promise<StoredLock | undefined> {
    const stored = await this.#storage.getTransactionById(id);
    return (
      stored && {
        transaction: deserializeTransaction(stored.serialized),
        timestamp: stored.timestamp,
      }
    );
  }

  save(block: FullBlock): Promise<void> {
    return this.#storage.saveBlocks([toStored(block)]);
  }

  async deleteAbove(height: number): Promise<void> {
    await this.#storage.deleteBlocksAbove(height);
  }

  async lastForgedBy(
    generatorPublicKey: string,
    belowHeight: number,
  ): Promise<LastBlock | undefined> {
    const rows = (await this.#database.manager.query(
      `SELECT id, height, "timestamp" FROM blocks
       WHERE generator_public_key = $1 AND height < $2 ORDER BY height DESC LIMIT 1`,
      [generatorPublicKey, belowHeight],
    )) as { id: string; height: number; timestamp: number }[];
    const row = rows[0];
    return row && { id: row.id, height: Number(row.height), timestamp: Number(row.timestamp) };
  }
}

function withTransactions(
  block: StoredBlock,
  transactions: readonly Pick<SerializedTransaction, 'serialized'>[],
): FullBlock {
  return {
    ...block,
    transactions: transactions.map((tx) => deserializeTransaction(tx.serialized)),
  };
}

function toStored(block: FullBlock): BlockWithTransactions {
  const { transactions = [], ...header } = block;
  const stored: StoredBlock = {
    id: header.id,
    version: header.version,
    timestamp: header.timestamp,
    height: header.height,
    previousBlock: header.previousBlock,
    numberOfTransactions: header.numberOfTransactions,
    totalAmount: header.totalAmount,
    totalFee: header.totalFee,
    reward: header.reward,
    payloadLength: header.payloadLength,
    payloadHash: header.payloadHash,
    generatorPublicKey: header.generatorPublicKey,
    blockSignature: header.blockSignature,
  };
  return {
    block: stored,
    transactions: transactions.map((tx, sequence) => toStoredTransaction(tx, block, sequence)),
  };
}

function toStoredTransaction(
  tx: TransactionData,
  block: FullBlock,
  sequence: number,
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
    serialized: serializeTransaction(tx),
  };
}
