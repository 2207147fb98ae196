/** ARK 3.0 transaction type groups; only the core group is defined by the protocol. */
export enum TransactionTypeGroup {
  Test = 0,
  Core = 1,
}

/** The core (typeGroup 1) transaction types of ARK 3.0. */
export enum TransactionType {
  Transfer = 0,
  SecondSignature = 1,
  DelegateRegistration = 2,
  Vote = 3,
  MultiSignature = 4,
  Ipfs = 5,
  MultiPayment = 6,
  DelegateResignation = 7,
  HtlcLock = 8,
  HtlcClaim = 9,
  HtlcRefund = 10,
}

/** HTLC lock expiration: an epoch timestamp (1) or a block height (2). */
export enum HtlcLockExpirationType {
  EpochTimestamp = 1,
  BlockHeight = 2,
}

export interface MultiPayment {
  readonly amount: bigint;
  readonly recipientId: string;
}

/** The type-specific part of a transaction; which key is set depends on the type. */
export interface TransactionAsset {
  /** secondSignature: the second public key being registered. */
  readonly signature?: { readonly publicKey: string };
  /** delegateRegistration; genesis files also carry the delegate's publicKey, kept as given. */
  readonly delegate?: { readonly username: string; readonly publicKey?: string };
  /** vote: `+<publicKey>` votes, `-<publicKey>` unvotes. */
  readonly votes?: readonly string[];
  readonly multiSignature?: { readonly min: number; readonly publicKeys: readonly string[] };
  /** ipfs: the base58 multihash. */
  readonly ipfs?: string;
  readonly payments?: readonly MultiPayment[];
  readonly lock?: {
    readonly secretHash: string;
    readonly expiration: { readonly type: HtlcLockExpirationType; readonly value: number };
  };
  readonly claim?: { readonly lockTransactionId: string; readonly unlockSecret: string };
  readonly refund?: { readonly lockTransactionId: string };
}

/**
 * A transaction as ARK 3.0 defines it, amounts as bigint. Version 2 (AIP-11) carries a nonce;
 * version 1 (genesis blocks) a timestamp instead. Signatures and keys are lowercase hex.
 */
export interface TransactionData {
  readonly version: 1 | 2;
  /** The network's pubKeyHash byte. */
  readonly network: number;
  readonly typeGroup: number;
  readonly type: number;
  /** Version 2 only; 0n for version 1. */
  readonly nonce: bigint;
  readonly senderPublicKey: string;
  readonly fee: bigint;
  readonly amount: bigint;
  /** Version 1 only: seconds since the network epoch. */
  readonly timestamp?: number;
  /** transfer: block height after which it may not be forged (0 = none). */
  readonly expiration?: number;
  readonly recipientId?: string;
  readonly vendorField?: string;
  readonly asset?: TransactionAsset;
  readonly signature?: string;
  readonly secondSignature?: string;
  /** Multisignature participants: hex `index byte ‖ 64-byte Schnorr signature` each. */
  readonly signatures?: readonly string[];
  /** Hex sha256 of the serialization (v2) or of the legacy signing bytes (v1). */
  readonly id?: string;
}

/** What a hash or serialization leaves out, as for each kind of signature. */
export interface SerializationOptions {
  readonly excludeSignature?: boolean;
  readonly excludeSecondSignature?: boolean;
  readonly excludeMultiSignature?: boolean;
}
