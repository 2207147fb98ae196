import { deserializeBlock, serializeFullBlock, type Milestones } from '@lni/crypto';
import { KernelError, type Logger } from '@lni/kernel';
import type {
  BlockHeader,
  BlockReference,
  BlockVerdict,
  ChainPort,
  ChainStatus,
  PeerAddress,
  TransactionsVerdict,
} from '@lni/p2p';
import { BlockRejectedError } from '../blocks/block-rejected-error.js';
import type { BlockProcessor } from '../blocks/block-processor.js';
import type { BlockStore, FullBlock } from '../blocks/block-store.js';
import type { TransactionPool } from '../pool/transaction-pool.js';

export interface LedgerChainPortDeps {
  readonly blockProcessor: BlockProcessor;
  readonly transactionPool: TransactionPool;
  readonly blockStore: BlockStore;
  readonly milestones: Milestones;
  readonly networkIdentity: { readonly name: string; readonly nethash: string };
  readonly logger: Logger;
  /** Most blocks served per blocksFrom call, whatever a peer asks. */
  readonly maxBlocksPerRequest?: number;
  /** Most hex characters served per blocksFrom call (always at least one block). */
  readonly maxBytesPerRequest?: number;
}

/** Hex served per getBlocks answer: well under p2p's message limit, quick to send. */
const DEFAULT_MAX_BYTES_PER_REQUEST = 4 * 1024 * 1024;
/** Blocks read from storage at a time while filling an answer. */
const READ_CHUNK = 25;

/**
 * Rules a block breaks only when its sender forged or altered it; peers relaying such blocks
 * are penalised. Others (height, previous block, slot, a transaction that no longer applies)
 * can be honest races or forks.
 */
const MISBEHAVIOUR = new Set([
  'malformed',
  'header',
  'id',
  'version',
  'reward',
  'signature',
  'generator',
  'numberOfTransactions',
  'maxTransactions',
  'maxPayload',
  'payloadLength',
  'payloadHash',
  'totalAmount',
  'totalFee',
  'transactionId',
  'transactionSignature',
  'duplicateTransaction',
]);

/** The ledger as p2p sees it (registered as `p2pChain`); blocks and transactions travel as hex. */
export class LedgerChainPort implements ChainPort {
  readonly network: { readonly name: string; readonly nethash: string };
  readonly #deps: LedgerChainPortDeps;

  constructor(deps: LedgerChainPortDeps) {
    this.#deps = deps;
    this.network = deps.networkIdentity;
  }

  status(): ChainStatus {
    const last = this.#deps.blockProcessor.lastBlock;
    if (!last) throw new KernelError('ERR_CHAIN_EMPTY', 'the chain has no genesis block yet');
    return { height: last.height, header: headerOf(last) };
  }

  async blocksFrom(height: number, limit: number): Promise<readonly string[]> {
    const count = Math.max(0, Math.min(limit, this.#deps.maxBlocksPerRequest ?? 400));
    if (count === 0 || height < 1) return [];
    // Full blocks can be megabytes each: read a few at a time and stop at the byte budget (at
    // least one block), so the answer fits a message and arrives within a request's timeout.
    const budget = this.#deps.maxBytesPerRequest ?? DEFAULT_MAX_BYTES_PER_REQUEST;
    const served: string[] = [];
    let bytes = 0;
    for (let from = height; from < height + count; from += READ_CHUNK) {
      const to = Math.min(from + READ_CHUNK, height + count) - 1;
      const blocks = await this.#deps.blockStore.blocksInRange(from, to);
      for (const block of blocks) {
        const hex = serializeFullBlock(block, this.#deps.milestones).toString('hex');
        if (served.length > 0 && bytes + hex.length > budget) return served;
        served.push(hex);
        bytes += hex.length;
      }
      if (blocks.length < to - from + 1) break;
    }
    return served;
  }

  async commonBlock(ids: readonly string[]): Promise<BlockReference | undefined> {
    let best: BlockReference | undefined;
    for (const id of ids) {
      const block = await this.#deps.blockStore.blockById(id);
      if (block && (!best || block.height > best.height))
        best = { id: block.id, height: block.height };
    }
    return best;
  }

  async blockIds(heights: readonly number[]): Promise<readonly BlockReference[]> {
    const tip = this.#deps.blockProcessor.lastBlock?.height ?? 0;
    const wanted = [...new Set(heights)]
      .filter((height) => Number.isSafeInteger(height) && height >= 1 && height <= tip)
      .sort((a, b) => a - b);
    // Probes are the last heights then ever further back: read each run of consecutive heights
    // with one query, never the whole span between the oldest probe and the tip.
    const blocks: FullBlock[] = [];
    for (const [from, to] of consecutiveRuns(wanted)) {
      blocks.push(...(await this.#deps.blockStore.blocksInRange(from, to)));
    }
    const byHeight = new Map(blocks.map((block) => [block.height, block.id]));
    return heights.flatMap((height) => {
      const id = byHeight.get(height);
      return id === undefined ? [] : [{ id, height }];
    });
  }

  /** The reverted blocks' transactions return to the pool through the `block.reverted` event. */
  async revertTo(height: number): Promise<void> {
    await this.#deps.blockProcessor.revertTo(height);
  }

  async acceptBlock(blockHex: string, from: PeerAddress): Promise<BlockVerdict> {
    let block: FullBlock;
    try {
      block = deserializeBlock(Buffer.from(blockHex, 'hex'), this.#deps.milestones);
    } catch (error) {
      return { status: 'invalid', reason: `malformed: ${(error as Error).message}` };
    }
    const last = this.#deps.blockProcessor.lastBlock;
    if (last && block.height <= last.height) {
      const stored = block.id === last.id || (await this.#deps.blockStore.blockById(block.id));
      return stored
        ? { status: 'known' }
        : {
            status: 'rejected',
            reason: `height: ${block.height} is not above our ${last.height} (fork)`,
          };
    }
    try {
      await this.#deps.blockProcessor.process(block);
      return { status: 'accepted' };
    } catch (error) {
      if (!(error instanceof BlockRejectedError)) throw error;
      this.#deps.logger.info(
        { height: block.height, id: block.id, rule: error.rule, peer: from.ip },
        'Block from peer refused',
      );
      const reason = `${error.rule}: ${error.message}`;
      return MISBEHAVIOUR.has(error.rule)
        ? { status: 'invalid', reason }
        : { status: 'rejected', reason };
    }
  }

  /** Transactions submitted to this node (the API), for p2p to pass on to its peers. */
  onSubmittedTransactions(listener: (transactionsHex: readonly string[]) => void): () => void {
    return this.#deps.transactionPool.onAccepted((serialized, origin) => {
      if (origin === 'submitted') listener(serialized.map((bytes) => bytes.toString('hex')));
    });
  }

  async acceptTransactions(
    transactionsHex: readonly string[],
    _from: PeerAddress,
  ): Promise<TransactionsVerdict> {
    const result = await this.#deps.transactionPool.addSerialized(
      transactionsHex,
      undefined,
      'peer',
    );
    return {
      accepted: result.accepted,
      invalid: result.rejected.map((r) => ({
        index: r.index,
        reason: `${r.reason}: ${r.message}`,
      })),
    };
  }
}

function headerOf(block: FullBlock): BlockHeader {
  return {
    id: block.id,
    height: block.height,
    version: block.version,
    timestamp: block.timestamp,
    previousBlock: block.previousBlock,
    numberOfTransactions: block.numberOfTransactions,
    totalAmount: block.totalAmount.toString(),
    totalFee: block.totalFee.toString(),
    reward: block.reward.toString(),
    payloadLength: block.payloadLength,
    payloadHash: block.payloadHash,
    generatorPublicKey: block.generatorPublicKey,
    blockSignature: block.blockSignature,
  };
}

/** Sorted heights as [from, to] runs of consecutive values. */
function consecutiveRuns(sorted: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const height of sorted) {
    const last = runs.at(-1);
    if (last && last[1] === height - 1) last[1] = height;
    else runs.push([height, height]);
  }
  return runs;
}
