import { addressFromPublicKey } from '../../identities/address.js';
import { voteHandler } from '../types/vote.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

export class VoteBuilder extends TransactionBuilder<VoteBuilder> {
  constructor(options?: BuilderOptions) {
    super(voteHandler, options);
  }

  /** `+publicKey` to vote, `-publicKey` to unvote; ARK 3.0 allows an unvote then a vote. */
  votes(votes: readonly string[]): this {
    this.data.asset = { votes: [...votes] };
    return this;
  }

  vote(delegatePublicKey: string): this {
    return this.votes([...(this.data.asset?.votes ?? []), `+${delegatePublicKey}`]);
  }

  unvote(delegatePublicKey: string): this {
    return this.votes([...(this.data.asset?.votes ?? []), `-${delegatePublicKey}`]);
  }

  protected override complete(): void {
    // Version-1 votes name the voter as recipient (ARK's legacy id covers it).
    if (this.data.version === 1 && this.data.senderPublicKey !== '') {
      this.data.recipientId = addressFromPublicKey(this.data.senderPublicKey, this.data.network);
    }
  }
}

export const vote = (options?: BuilderOptions): VoteBuilder => new VoteBuilder(options);
