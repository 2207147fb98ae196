import type { BlockHeader } from '@lni/crypto';

/** A transaction as stored, with the height and position of its block. */
export interface StoredTransaction {
  readonly id: string;
  readonly blockId: string;
  readonly blockHeight: number;
  /** Position inside the block, from 0. */
  readonly sequence: number;
  readonly version: number;
  /** Epoch seconds of its block. */
  readonly timestamp: number;
  readonly nonce: bigint;
  readonly senderPublicKey: string;
  readonly recipientId: string | null;
  readonly type: number;
  readonly typeGroup: number;
  readonly vendorField: string | null;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly asset: Readonly<Record<string, unknown>> | null;
  readonly serialized: Uint8Array;
}

/** One delegate of a round, with the vote balance it was elected with. */
/** A stored transaction's wire bytes and the height of its block. */
export interface SerializedTransaction {
  readonly blockHeight: number;
  readonly serialized: Uint8Array;
}

export interface StoredRoundDelegate {
  readonly round: number;
  readonly publicKey: string;
  readonly balance: bigint;
}

/** A block with the transactions it carries, the unit saved atomically. */
export interface BlockWithTransactions {
  readonly block: BlockHeader;
  readonly transactions: readonly StoredTransaction[];
}
