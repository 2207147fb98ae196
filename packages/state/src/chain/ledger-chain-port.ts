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
}

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
    const blocks = await this.#deps.blockStore.blocksInRange(height, height + count - 1);
    return blocks.map((block) => serializeFullBlock(block, this.#deps.milestones).toString('hex'));
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

  async acceptTransactions(
    transactionsHex: readonly string[],
    _from: PeerAddress,
  ): Promise<TransactionsVerdict> {
    const result = await this.#deps.transactionPool.addSerialized(transactionsHex);
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
