import { ipfsHandler } from '../types/ipfs.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

export class IpfsBuilder extends TransactionBuilder<IpfsBuilder> {
  constructor(options?: BuilderOptions) {
    super(ipfsHandler, options);
  }

  /** The base58 multihash, e.g. `Qm…`. */
  ipfsAsset(hash: string): this {
    this.data.asset = { ipfs: hash };
    return this;
  }
}

export const ipfs = (options?: BuilderOptions): IpfsBuilder => new IpfsBuilder(options);
