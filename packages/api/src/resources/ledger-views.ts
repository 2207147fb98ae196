import type { BlockHeader } from '@lni/crypto';

/**
 * The shapes the resources read from the ledger. They are structural so that the state and
 * database plugins' own types satisfy them without the API importing their internals.
 */
export interface DelegateView {
  readonly username: string;
  readonly voteBalance: bigint;
  readonly forgedFees: bigint;
  readonly forgedRewards: bigint;
  readonly producedBlocks: number;
  /** Slots the delegate let pass; absent until it missed one. */
  readonly missedBlocks?: number;
  readonly rank?: number;
  readonly lastBlock?: { readonly id: string; readonly height: number; readonly timestamp: number };
  readonly resigned?: boolean;
}

/** An open HTLC lock, kept in its sender's wallet under the lock transaction's id. */
export interface HtlcLockView {
  readonly amount: bigint;
  readonly recipientId: string;
  readonly secretHash: string;
  /** type 1: epoch timestamp in seconds, type 2: block height. */
  readonly expiration: { readonly type: number; readonly value: number };
  /** Epoch seconds of the block that opened the lock. */
  readonly timestamp: number;
  readonly vendorField?: string;
}

export interface WalletView {
  readonly address: string;
  readonly publicKey?: string;
  readonly balance: bigint;
  readonly nonce: bigint;
  /**
   * Delegate attributes are read by the delegate resource, HTLC locks by the lock resource; the
   * rest is shown as it is.
   */
  readonly attributes: {
    readonly delegate?: DelegateView;
    readonly htlc?: { readonly locks: Readonly<Record<string, HtlcLockView>> };
  };
}

/** The chain's last block, as much as the node and blockchain routes show of it. */
export type LastBlockView = Pick<BlockHeader, 'id' | 'height' | 'timestamp'>;

/** A confirmed transaction as storage returns it (epoch seconds of its block). */
export interface TransactionView {
  readonly id: string;
  readonly blockId: string;
  readonly blockHeight: number;
  readonly version: number;
  readonly type: number;
  readonly typeGroup: number;
  readonly nonce: bigint;
  readonly senderPublicKey: string;
  readonly recipientId?: string | null;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly vendorField?: string | null;
  readonly asset?: unknown;
  readonly signature?: string | null;
  readonly secondSignature?: string | null;
  readonly signatures?: readonly string[] | null;
  readonly timestamp: number;
}
