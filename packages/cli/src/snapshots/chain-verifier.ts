import {
  blockHeaderFromJson,
  blockId,
  deserializeTransaction,
  verifyBlocksInPool,
  type BlockData,
  type Milestones,
  type TransactionData,
  type VerificationPool,
} from '@lni/crypto';
import { ConfigError } from '@lni/kernel';
import type { ChainLine } from './chain-lines.js';
import { SignerRegistry } from './signer-registry.js';

/** A block of the snapshot as read back: its data and its transactions' wire bytes. */
export interface ReadBlock {
  readonly block: BlockData<TransactionData>;
  readonly serialized: readonly Uint8Array[];
}

/**
 * Checks a snapshot's chain as it streams, block after block: each height follows the last,
 * each block names the one before as its previous block, the first is the network's genesis
 * block, and every rule of every block after genesis holds (its id, payload, totals, the
 * generator's signature and every transaction's signatures, checked by the worker threads of
 * `pool`, a batch at a time). The first problem is a ConfigError naming the height.
 */
export class ChainVerifier {
  readonly #registry = new SignerRegistry();
  #lastHeight = 0;
  #lastId: string | undefined;
  #signed = 0;

  constructor(
    private readonly milestones: Milestones,
    /** The network's genesis block: its id and its transactions' ids, in order. */
    private readonly genesis: { readonly id: string; readonly transactionIds: readonly string[] },
    private readonly pool: VerificationPool,
    private readonly file: string,
  ) {}

  get height(): number {
    return this.#lastHeight;
  }

  get lastId(): string | undefined {
    return this.#lastId;
  }

  /** Blocks whose signatures this verifier checked (not those it only followed). */
  get signaturesChecked(): number {
    return this.#signed;
  }

  /** Follows a batch whose signatures were checked before (a resumed verification). */
  follow(blocks: readonly ReadBlock[]): void {
    for (const read of blocks) {
      this.#link(read.block);
      read.block.transactions?.forEach((tx) => this.#registry.apply(tx));
    }
  }

  /** Checks a batch of consecutive blocks, links first, then the signatures. */
  async verify(blocks: readonly ReadBlock[]): Promise<void> {
    // Registrations change who must sign: a batch is cut after each block that registers, so
    // every block is judged under the registrations of the blocks before it.
    let pending: ReadBlock[] = [];
    for (const read of blocks) {
      this.#link(read.block);
      if (read.block.height > 1) pending.push(read);
      const registers = read.block.transactions?.some(SignerRegistry.registers) ?? false;
      if (registers) {
        await this.#signatures(pending);
        pending = [];
      }
      read.block.transactions?.forEach((tx) => this.#registry.apply(tx));
    }
    await this.#signatures(pending);
  }

  #link(block: BlockData<TransactionData>): void {
    const expected = this.#lastHeight + 1;
    if (block.height !== expected) {
      throw this.#problem(expected, `expected height ${expected}, found ${block.height}`);
    }
    if (block.height === 1) this.#checkGenesis(block);
    if (block.height > 1 && block.previousBlock !== this.#lastId) {
      throw this.#problem(
        block.height,
        `previousBlock ${String(block.previousBlock)} is not the block before (${this.#lastId})`,
      );
    }
    this.#lastHeight = block.height;
    this.#lastId = block.id;
  }

  /**
   * The genesis block is the network's own, not judged by the rules of later blocks: its id,
   * computed from its header (which holds the payload hash), and its transactions' ids (computed
   * from their bytes, signatures included) must be the network's.
   */
  #checkGenesis(block: BlockData<TransactionData>): void {
    const computed = blockId(block, this.milestones);
    const ids = (block.transactions ?? []).map((tx) => tx.id);
    const same =
      ids.length === this.genesis.transactionIds.length &&
      ids.every((id, index) => id === this.genesis.transactionIds[index]);
    if (block.id !== this.genesis.id || computed !== this.genesis.id || !same) {
      throw this.#problem(
        1,
        `the first block is not the network's genesis block ${this.genesis.id} (its id ${block.id}, computed ${computed}${same ? '' : ', other transactions'})`,
      );
    }
  }

  async #signatures(blocks: readonly ReadBlock[]): Promise<void> {
    if (blocks.length === 0) return;
    const results = await verifyBlocksInPool(
      blocks.map((read) => read.block),
      this.milestones,
      this.pool,
      { registrationsOf: (key) => this.#registry.of(key) },
    );
    results.forEach((result, index) => {
      if (result.verified) return;
      const { height } = (blocks[index] as ReadBlock).block;
      const reasons = result.failures.map((failure) => failure.message).join('; ');
      throw this.#problem(height, reasons);
    });
    this.#signed += blocks.length;
  }

  #problem(height: number, reason: string): ConfigError {
    return new ConfigError(
      `${this.file}: block at height ${height}: ${reason}: nothing was written`,
    );
  }
}

/** A chain line parsed back into block data; a malformed line is a ConfigError naming its line. */
export function readChainLine(text: string, line: number, file: string): ReadBlock {
  try {
    const parsed = JSON.parse(text) as ChainLine;
    const serialized = parsed.transactions.map((hex) => Buffer.from(hex, 'hex'));
    const block: BlockData<TransactionData> = {
      ...blockHeaderFromJson(parsed.block),
      transactions: serialized.map((bytes) => deserializeTransaction(bytes)),
    };
    return { block, serialized };
  } catch (error) {
    throw new ConfigError(
      `${file}: chain line ${line} cannot be read (${(error as Error).message}): the file is damaged; nothing was written`,
    );
  }
}
