import { keysFromPassphrase } from '../../identities/keys.js';
import { secondSignatureHandler } from '../types/second-signature.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

export class SecondSignatureBuilder extends TransactionBuilder<SecondSignatureBuilder> {
  constructor(options?: BuilderOptions) {
    super(secondSignatureHandler, options);
  }

  secondPublicKey(publicKey: string): this {
    this.data.asset = { signature: { publicKey } };
    return this;
  }

  /** Registers the public key of this second passphrase. */
  secondPassphrase(passphrase: string): this {
    return this.secondPublicKey(keysFromPassphrase(passphrase).publicKey.toString('hex'));
  }
}

export const secondSignature = (options?: BuilderOptions): SecondSignatureBuilder =>
  new SecondSignatureBuilder(options);
