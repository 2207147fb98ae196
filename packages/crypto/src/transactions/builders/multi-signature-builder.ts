import { multiSignatureHandler } from '../types/multi-signature.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

/** Participants multiSign first (in key order), then the sender signs over their signatures. */
export class MultiSignatureBuilder extends TransactionBuilder<MultiSignatureBuilder> {
  constructor(options?: BuilderOptions) {
    super(multiSignatureHandler, options);
  }

  multiSignatureAsset(asset: { min: number; publicKeys: readonly string[] }): this {
    this.data.asset = { multiSignature: { min: asset.min, publicKeys: [...asset.publicKeys] } };
    return this;
  }

  participant(publicKey: string): this {
    const current = this.data.asset?.multiSignature ?? { min: 0, publicKeys: [] };
    return this.multiSignatureAsset({ ...current, publicKeys: [...current.publicKeys, publicKey] });
  }

  min(min: number): this {
    const current = this.data.asset?.multiSignature ?? { min: 0, publicKeys: [] };
    return this.multiSignatureAsset({ ...current, min });
  }
}

export const multiSignature = (options?: BuilderOptions): MultiSignatureBuilder =>
  new MultiSignatureBuilder(options);
