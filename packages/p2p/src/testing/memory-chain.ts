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
 * A ChainPort over an in-memory list of made-up blocks, standing in for the ledger (`@lni/state`,
 * ours but not written yet) in this package's tests. A block is "invalid" when its hex starts
 * with `dead`, so tests can provoke the invalid-block penalty.
 */
export class MemoryChain implements ChainPort {
  readonly network: { readonly name: string; readonly nethash: string };
  readonly headers: BlockHeader[] = [];
  readonly received: { kind: 'block' | 'transactions'; from: PeerAddress; payload: unknown }[] = [];

  constructor(options: { readonly nethash?: string; readonly height?: number } = {}) {
    this.network = { name: 'testnet', nethash: options.nethash ?? sha256('testnet') };
    for (let height = 1; height <= (options.height ?? 1); height++) this.append();
  }

  status(): ChainStatus {
    const header = this.headers[this.headers.length - 1] as BlockHeader;
    return { height: header.height, header };
  }

  async blocksFrom(height: number, limit: number): Promise<readonly string[]> {
    return this.headers
      .slice(height - 1, height - 1 + limit)
      .map((header) => Buffer.from(JSON.stringify(header)).toString('hex'));
  }

  async commonBlock(ids: readonly string[]): Promise<BlockReference | undefined> {
    const wanted = new Set(ids);
    const common = this.headers.filter((header) => wanted.has(header.id)).at(-1);
    return common && { id: common.id, height: common.height };
  }

  async acceptBlock(blockHex: string, from: PeerAddress): Promise<BlockVerdict> {
    this.received.push({ kind: 'block', from, payload: blockHex });
    if (blockHex.startsWith('dead')) return { status: 'invalid', reason: 'bad signature' };
    this.append();
    return { status: 'accepted' };
  }

  async acceptTransactions(
    transactionsHex: readonly string[],
    from: PeerAddress,
  ): Promise<TransactionsVerdict> {
    this.received.push({ kind: 'transactions', from, payload: transactionsHex });
    return { accepted: transactionsHex.map((hex) => sha256(hex)), invalid: [] };
  }

  private append(): void {
    const previous = this.headers.at(-1);
    const height = (previous?.height ?? 0) + 1;
    this.headers.push({
      id: sha256(`${this.network.nethash}:${height}`),
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
      generatorPublicKey: `02${sha256(String(height))}`,
    });
  }
}
