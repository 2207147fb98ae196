import {
  BlockDeserializationError,
  blockId,
  DeserializationError,
  deserializeTransaction,
  readBlock,
  serializeBlock,
  verifyBlockSignature,
  type BlockHeader,
  type BlockReference,
  type Milestones,
  type NetworkConfig,
  type ReadBlock,
} from '@lni/crypto';
import { KernelError, type Logger } from '@lni/kernel';
import type {
  BlockVerdict,
  ChainBlock,
  Chain,
  ChainStatus,
  HeaderCheck,
  IncomingBlock,
  NetworkIdentity,
  PeerAddress,
  TransactionsVerdict,
} from '../contracts/chain.js';
import { BlockRejectedError } from '../blocks/block-rejected-error.js';
import type { BlockProcessor } from '../blocks/block-processor.js';
import type { BlockStore, WireBlockSource } from '../blocks/block-store.js';
import { statusForging } from '../rounds/forging-answers.js';
import type { RoundKeeper } from '../rounds/round-keeper.js';
import type { TransactionPool } from '../pool/transaction-pool.js';
import { peerName } from './peer-name.js';

export interface LedgerChainDeps {
  readonly blockProcessor: BlockProcessor;
  readonly transactionPool: TransactionPool;
  readonly blockStore: BlockStore & WireBlockSource;
  /** Slots and elected rounds: the node's RoundKeeper. */
  readonly roundKeeper: Pick<RoundKeeper, 'clock' | 'forgingWindowAt' | 'electedFor'>;
  readonly milestones: Milestones;
  readonly network: NetworkConfig['network'];
  readonly logger: Logger;
  /** Most blocks served per blocksFrom call, whatever a peer asks. */
  readonly maxBlocksPerRequest?: number;
  readonly now?: () => number;
}

/** Blocks read from storage at a time while filling an answer. */
const READ_CHUNK = 25;

/** The ledger as p2p sees it (registered as `chain`). */
export class LedgerChain implements Chain {
  readonly network: NetworkIdentity;
  readonly #deps: LedgerChainDeps;

  constructor(deps: LedgerChainDeps) {
    this.#deps = deps;
    const { name, nethash, client, pubKeyHash } = deps.network;
    this.network = {
      name,
      nethash,
      explorer: client.explorer,
      token: client.token,
      symbol: client.symbol,
      version: pubKeyHash,
    };
  }

  status(): ChainStatus {
    const last = this.#deps.blockProcessor.lastBlock;
    if (!last) throw new KernelError('ERR_CHAIN_EMPTY', 'the chain has no genesis block yet');
    const { roundKeeper } = this.#deps;
    const now = roundKeeper.clock.epochTime(this.#deps.now?.() ?? Date.now());
    return { height: last.height, header: last, ...statusForging(roundKeeper, last, now) };
  }

  roundLength(): number {
    const last = this.#deps.blockProcessor.lastBlock;
    return this.#deps.milestones.at(last?.height ?? 1).activeDelegates;
  }

  minimumPeerVersions(height: number): readonly string[] {
    const p2p = this.#deps.milestones.at(height)['p2p'] as
      { readonly minimumVersions?: unknown } | undefined;
    const ranges = p2p?.minimumVersions;
    return Array.isArray(ranges) ? ranges.filter((range) => typeof range === 'string') : [];
  }

  async blocksFrom(
    height: number,
    limit: number,
    { headersOnly, maxBytes }: { readonly headersOnly: boolean; readonly maxBytes: number },
  ): Promise<readonly ChainBlock[]> {
    const tip = this.#deps.blockProcessor.lastBlock?.height ?? 0;
    // A peer may ask for any u32 height; past our tip there is nothing, and PostgreSQL's
    // integer columns could not even be asked about heights from 2^31 on.
    const count = Math.max(
      0,
      Math.min(limit, this.#deps.maxBlocksPerRequest ?? 400, tip - height + 1),
    );
    if (count === 0 || height < 1) return [];
    // Full blocks can be megabytes each: read a few at a time and stop at the byte budget (at
    // least one block), so the answer fits a message and arrives within a request's timeout.
    const served: ChainBlock[] = [];
    let bytes = 0;
    for (let from = height; from < height + count; from += READ_CHUNK) {
      const to = Math.min(from + READ_CHUNK, height + count) - 1;
      const blocks = await this.#deps.blockStore.wireBlocksInRange(from, to, !headersOnly);
      for (const { block, transactions } of blocks) {
        const size = transactions.reduce((sum, tx) => sum + tx.byteLength, 0);
        if (served.length > 0 && bytes + size > maxBytes) return served;
        served.push({ header: block, transactions });
        bytes += size;
      }
      if (blocks.length < to - from + 1) break;
    }
    return served;
  }

  serializeBlock({ header, transactions }: ChainBlock): Buffer {
    return serializeBlock(header, transactions, this.#deps.milestones);
  }

  async commonBlock(ids: readonly string[]): Promise<BlockReference | undefined> {
    let best: BlockReference | undefined;
    for (const id of ids) {
      const block = await this.#deps.blockStore.blockById(id);
      if (block && (!best || block.height > best.height)) {
        best = { id: block.id, height: block.height };
      }
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
    const byHeight = new Map<number, string>();
    for (const [from, to] of consecutiveRuns(wanted)) {
      for (const { block } of await this.#deps.blockStore.wireBlocksInRange(from, to, false)) {
        byHeight.set(block.height, block.id);
      }
    }
    return heights.flatMap((height) => {
      const id = byHeight.get(height);
      return id === undefined ? [] : [{ id, height }];
    });
  }

  async checkHeader(header: BlockHeader): Promise<HeaderCheck> {
    const [ours] = await this.blockIds([header.height]);
    if (ours?.id === header.id) return { valid: true };
    // The genesis block is configuration: a peer's height-1 block is ours or not the network's.
    if (header.height === 1) return { valid: false, reason: 'another genesis block' };
    const { milestones, roundKeeper } = this.#deps;
    if (blockId(header, milestones) !== header.id) {
      return { valid: false, reason: `id ${header.id} is not the header's` };
    }
    if (!verifyBlockSignature(header, milestones)) {
      return { valid: false, reason: 'the signature is not the generator’s' };
    }
    const elected = roundKeeper.electedFor(header.height);
    if (elected && !elected.order.includes(header.generatorPublicKey)) {
      return { valid: false, reason: `its generator is not a delegate of round ${elected.round}` };
    }
    return { valid: true };
  }

  /** The reverted blocks' transactions return to the pool, one of the processor's chain listeners. */
  async revertTo(height: number): Promise<void> {
    await this.#deps.blockProcessor.revertTo(height);
  }

  async acceptBlock(incoming: IncomingBlock, from: PeerAddress): Promise<BlockVerdict> {
    // The transactions' bytes go along as they came, checked and stored without a re-encoding.
    let read: ReadBlock;
    try {
      read =
        'serialized' in incoming
          ? readBlock(incoming.serialized, this.#deps.milestones)
          : {
              block: {
                ...incoming.header,
                transactions: incoming.transactions.map((bytes) => deserializeTransaction(bytes)),
              },
              serialized: incoming.transactions,
            };
    } catch (error) {
      return this.unreadable(error, from);
    }
    const { block, serialized } = read;
    const last = this.#deps.blockProcessor.lastBlock;
    if (last && block.height <= last.height) {
      return (await this.#isApplied(block.id))
        ? { status: 'known' }
        : {
            status: 'rejected',
            reason: `height: ${block.height} is not above our ${last.height} (fork)`,
          };
    }
    try {
      await this.#deps.blockProcessor.process(block, serialized);
      return { status: 'accepted' };
    } catch (error) {
      if (!(error instanceof BlockRejectedError)) throw error;
      // Peers relay the same block to us at once: a copy that waited behind the one applied
      // is a duplicate, not a refusal.
      if (error.rule === 'height' && (await this.#isApplied(block.id))) {
        this.#deps.logger.debug(
          { height: block.height, id: block.id, peer: peerName(from) },
          'Block from peer already applied',
        );
        return { status: 'known' };
      }
      this.#deps.logger.info(
        { height: block.height, id: block.id, rule: error.rule, peer: peerName(from) },
        'Block from peer refused',
      );
      const reason = `${error.rule}: ${error.message}`;
      return error.misbehaviour ? { status: 'invalid', reason } : { status: 'rejected', reason };
    }
  }

  async #isApplied(id: string): Promise<boolean> {
    if (this.#deps.blockProcessor.lastBlock?.id === id) return true;
    return Boolean(await this.#deps.blockStore.blockById(id));
  }

  /** Transactions submitted to this node (the API), for p2p to pass on to its peers. */
  onSubmittedTransactions(listener: (transactions: readonly Buffer[]) => void): () => void {
    return this.#deps.transactionPool.subscribe({
      added: (entries, origin) => {
        if (origin === 'submitted') listener(entries.map((entry) => entry.bytes));
      },
    });
  }

  async acceptTransactions(
    transactions: readonly Buffer[],
    _from: PeerAddress,
  ): Promise<TransactionsVerdict> {
    const result = await this.#deps.transactionPool.addSerialized(
      transactions.map((bytes) => bytes.toString('hex')),
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

  /**
   * A block we cannot read. Transactions of a type we do not know (ARK's magistrate types, on
   * its own networks) are refused with a line naming the type, without blaming the sender;
   * other flaws mean the sender altered or invented the block.
   */
  private unreadable(error: unknown, from: PeerAddress): BlockVerdict {
    const cause = error instanceof BlockDeserializationError ? error.cause : error;
    if (cause instanceof DeserializationError && cause.reason === 'unknown-type') {
      this.#deps.logger.warn(
        { peer: peerName(from), detail: cause.message },
        'Block refused: it holds a transaction type this node does not know',
      );
      return { status: 'rejected', reason: `unknown transaction type: ${cause.message}` };
    }
    if (error instanceof BlockDeserializationError || error instanceof DeserializationError) {
      return { status: 'invalid', reason: `malformed: ${error.message}` };
    }
    throw error;
  }
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
