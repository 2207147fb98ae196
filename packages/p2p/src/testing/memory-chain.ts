import { createHash } from 'node:crypto';
import type {
  BlockHeader,
  BlockReference,
  BlockVerdict,
  ChainPort,
  ChainStatus,
  PeerAddress,
  TransactionsVerdict,
} from '../chain-port.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A ChainPort over an in-memory list of made-up blocks, standing in for the ledger (`@lni/state`)
 * in this package's tests. Blocks travel as the hex of their JSON header: a posted block that
 * decodes to a header is taken only when it follows our last block, as a ledger would. Other hex
 * is taken as "some next block" (a block is "invalid" when its hex starts with `dead`).
 * `branch` gives the blocks appended later other ids, to build forks.
 */
export class MemoryChain implements ChainPort {
  readonly network: { readonly name: string; readonly nethash: string };
  readonly headers: BlockHeader[] = [];
  readonly received: { kind: 'block' | 'transactions'; from: PeerAddress; payload: unknown }[] = [];
  /** Heights we were rolled back to, in order. */
  readonly reverts: number[] = [];
  /** Milliseconds each accepted block takes, to make sync measurable. */
  applyDelayMs = 0;

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
    };
    const height = options.height ?? 1;
    if (options.base) this.headers.push(...options.base.headers.slice(0, height));
    this.extend(height - this.headers.length, options.branch);
  }

  status(): ChainStatus {
    const header = this.headers[this.headers.length - 1] as BlockHeader;
    return { height: header.height, header };
  }

  get height(): number {
    return this.headers.length;
  }

  /** Appends `count` made-up blocks; a `branch` gives them ids no other branch has. */
  extend(count: number, branch?: string): void {
    for (let i = 0; i < count; i++) this.headers.push(this.nextHeader(branch));
  }

  async blocksFrom(height: number, limit: number): Promise<readonly string[]> {
    return this.headers.slice(height - 1, height - 1 + limit).map(encodeBlock);
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

  async revertTo(height: number): Promise<void> {
    this.reverts.push(height);
    this.headers.length = Math.min(this.headers.length, height);
  }

  async acceptBlock(blockHex: string, from: PeerAddress): Promise<BlockVerdict> {
    this.received.push({ kind: 'block', from, payload: blockHex });
    if (blockHex.startsWith('dead')) return { status: 'invalid', reason: 'bad signature' };
    const header = decodeBlock(blockHex);
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
    transactionsHex: readonly string[],
    from: PeerAddress,
  ): Promise<TransactionsVerdict> {
    this.received.push({ kind: 'transactions', from, payload: transactionsHex });
    return { accepted: transactionsHex.map((hex) => sha256(hex)), invalid: [] };
  }

  /** A block that would follow our last one, not yet applied (what a forger would post). */
  nextBlock(branch?: string): string {
    return encodeBlock(this.nextHeader(branch));
  }

  private nextHeader(branch?: string): BlockHeader {
    const previous = this.headers.at(-1);
    const height = (previous?.height ?? 0) + 1;
    const seed = branch === undefined ? `${this.network.nethash}:${height}` : `${branch}:${height}`;
    return {
      id: sha256(seed),
      height,
      version: 0,
      timestamp: height * 8,
      previousBlock: previous?.id ?? null,
      numberOfTransactions: 0,
      totalAmount: '0',
      totalFee: '0',
      reward: '200000000',
      payloadLength: 0,
      payloadHash: sha256(''),
      generatorPublicKey: `02${sha256(seed + ':generator')}`,
    };
  }
}

const encodeBlock = (header: BlockHeader): string =>
  Buffer.from(JSON.stringify(header)).toString('hex');

function decodeBlock(hex: string): BlockHeader | undefined {
  try {
    const value = JSON.parse(Buffer.from(hex, 'hex').toString('utf8')) as Partial<BlockHeader>;
    return typeof value.id === 'string' && typeof value.height === 'number'
      ? (value as BlockHeader)
      : undefined;
  } catch {
    return undefined;
  }
}
