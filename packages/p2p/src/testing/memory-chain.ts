import {
  blockHeaderFromJson,
  blockHeaderToJson,
  type BlockHeader,
  type BlockReference,
} from '@lni/crypto';
import { createHash } from 'node:crypto';
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
} from '@lni/state/contracts';
import { RouteError } from '../transport/route-error.js';
import { GRACEFUL_ERROR_STATUS } from '../wire/routes.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The made-up "signature" of a header: anyone can forge it, which is what tests need. */
export const signatureOf = (id: string): string => sha256(`signed:${id}`);

/**
 * A Chain over an in-memory list of made-up blocks, standing in for the ledger (`@lni/state`)
 * in this package's tests. A posted block travels as the JSON of its header: it is taken only
 * when it follows our last block, as a ledger would. Other bytes are taken as "some next block";
 * bytes starting with `dead` are an invalid block. `branch` gives the blocks appended later
 * other ids, to build forks. A header is authentic when its signature is `signatureOf(id)`.
 */
export class MemoryChain implements Chain {
  readonly network: NetworkIdentity;
  readonly headers: BlockHeader[] = [];
  readonly received: { kind: 'block' | 'transactions'; from: PeerAddress; payload: unknown }[] = [];
  /** Heights we were rolled back to, in order. */
  readonly reverts: number[] = [];
  /** Milliseconds each accepted block takes, to make sync measurable. */
  applyDelayMs = 0;
  /** Transactions each served block carries (made-up bytes), to exercise the packing. */
  transactionsPerBlock = 0;
  /** While set, getStatus is answered 499 "not ready", as ARK answers until its chain boots. */
  booting = false;

  constructor(
    options: {
      readonly nethash?: string;
      readonly height?: number;
      /** Another chain whose first `height` blocks this one starts with. */
      readonly base?: MemoryChain;
      readonly branch?: string;
    } = {},
  ) {
    this.network = {
      name: 'testnet',
      nethash: options.nethash ?? options.base?.network.nethash ?? sha256('testnet'),
      explorer: 'http://127.0.0.1:4200',
      token: 'ARK',
      symbol: 'TѦ',
      version: 23,
    };
    const height = options.height ?? 1;
    if (options.base) this.headers.push(...options.base.headers.slice(0, height));
    this.extend(height - this.headers.length, options.branch);
  }

  status(): ChainStatus {
    if (this.booting) throw new RouteError(GRACEFUL_ERROR_STATUS, 'App is not ready');
    const header = this.headers[this.headers.length - 1] as BlockHeader;
    return { height: header.height, header, forgingAllowed: true, currentSlot: header.height };
  }

  get height(): number {
    return this.headers.length;
  }

  roundLength(): number {
    return 51;
  }

  /** Appends `count` made-up blocks; a `branch` gives them ids no other branch has. */
  extend(count: number, branch?: string): void {
    for (let i = 0; i < count; i++) this.headers.push(this.nextHeader(branch));
  }

  async blocksFrom(
    height: number,
    limit: number,
    { headersOnly }: { readonly headersOnly: boolean; readonly maxBytes: number },
  ): Promise<readonly ChainBlock[]> {
    return this.headers.slice(height - 1, height - 1 + limit).map((header) => ({
      header,
      transactions: headersOnly ? [] : this.transactionsOf(header),
    }));
  }

  async commonBlock(ids: readonly string[]): Promise<BlockReference | undefined> {
    const wanted = new Set(ids);
    const common = this.headers.filter((header) => wanted.has(header.id)).at(-1);
    return common && { id: common.id, height: common.height };
  }

  async blockIds(heights: readonly number[]): Promise<readonly BlockReference[]> {
    return heights
      .map((height) => this.headers[height - 1])
      .filter((header) => header !== undefined)
      .map(({ id, height }) => ({ id, height }));
  }

  async checkHeader(header: BlockHeader): Promise<HeaderCheck> {
    return header.blockSignature === signatureOf(header.id)
      ? { valid: true }
      : { valid: false, reason: 'bad signature' };
  }

  async revertTo(height: number): Promise<void> {
    this.reverts.push(height);
    this.headers.length = Math.min(this.headers.length, height);
  }

  async acceptBlock(block: IncomingBlock, from: PeerAddress): Promise<BlockVerdict> {
    const serialized = 'serialized' in block ? block.serialized : undefined;
    this.received.push({ kind: 'block', from, payload: serialized ?? block });
    if (serialized?.toString('hex').startsWith('dead')) {
      return { status: 'invalid', reason: 'bad signature' };
    }
    const header = serialized ? decodeBlock(serialized) : (block as ChainBlock).header;
    if (!header) {
      this.headers.push(this.nextHeader());
      return { status: 'accepted' };
    }
    if (this.headers[header.height - 1]?.id === header.id) return { status: 'known' };
    const last = this.status().header;
    if (header.height !== last.height + 1 || header.previousBlock !== last.id) {
      return { status: 'rejected', reason: `not the next block (height ${header.height})` };
    }
    if (this.applyDelayMs > 0) await new Promise((done) => setTimeout(done, this.applyDelayMs));
    this.headers.push(header);
    return { status: 'accepted' };
  }

  async acceptTransactions(
    transactions: readonly Buffer[],
    from: PeerAddress,
  ): Promise<TransactionsVerdict> {
    this.received.push({ kind: 'transactions', from, payload: transactions });
    return { accepted: transactions.map((bytes) => sha256(bytes)), invalid: [] };
  }

  /** Our blocks travel as the JSON of their header, as nextBlock makes them. */
  serializeBlock(block: ChainBlock): Buffer {
    return encodeBlock(block.header);
  }

  /** A block that would follow our last one, not yet applied (what a forger would post). */
  nextBlock(branch?: string): Buffer {
    return encodeBlock(this.nextHeader(branch));
  }

  private transactionsOf(header: BlockHeader): Buffer[] {
    return Array.from({ length: this.transactionsPerBlock }, (_, index) =>
      Buffer.from(sha256(`${header.id}:${index}`).repeat(3), 'hex'),
    );
  }

  private nextHeader(branch?: string): BlockHeader {
    const previous = this.headers.at(-1);
    const height = (previous?.height ?? 0) + 1;
    const seed = branch === undefined ? `${this.network.nethash}:${height}` : `${branch}:${height}`;
    const id = sha256(seed);
    return {
      id,
      height,
      version: 0,
      timestamp: height * 8,
      previousBlock: previous?.id ?? null,
      numberOfTransactions: this.transactionsPerBlock,
      totalAmount: 0n,
      totalFee: 0n,
      reward: 200_000_000n,
      payloadLength: 0,
      payloadHash: sha256(''),
      generatorPublicKey: `02${sha256(`${seed}:generator`)}`,
      blockSignature: signatureOf(id),
    };
  }
}

const encodeBlock = (header: BlockHeader): Buffer =>
  Buffer.from(JSON.stringify(blockHeaderToJson(header)));

function decodeBlock(bytes: Buffer): BlockHeader | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined; // not one of our made-up blocks: "some next block"
  }
  const header = typeof value === 'object' && value !== null && 'id' in value && 'height' in value;
  return header ? blockHeaderFromJson(value) : undefined;
}
