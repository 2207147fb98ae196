import type { BlockHeader } from '@lni/crypto';

/**
 * The block a delegate forged last, its whole header as ARK 3.x keeps it in the wallet
 * (`attributes.delegate.lastBlock`): ids, height, timestamp (seconds since the epoch), totals,
 * payload, generator and signature.
 */
export type LastBlock = BlockHeader;

/** Delegate attributes of a wallet; `resigned` exists only once the delegate has resigned. */
export interface DelegateAttributes {
  readonly username: string;
  readonly voteBalance: bigint;
  readonly forgedFees: bigint;
  readonly forgedRewards: bigint;
  readonly producedBlocks: number;
  /** Slots of this delegate that passed without a block (absent: none yet). */
  readonly missedBlocks?: number;
  /**
   * Position by vote balance among all delegates, resigned ones included (ties by public key),
   * kept current after every block (set by the time the block that registered it is applied).
   */
  readonly rank?: number;
  /** The last round whose active delegates included this one (as ARK 3.x sets it). */
  readonly round?: number;
  readonly lastBlock?: LastBlock;
  readonly resigned?: boolean;
}

export interface MultiSignature {
  readonly min: number;
  readonly publicKeys: readonly string[];
}

export type HtlcExpirationType = 1 | 2;

/** One HTLC lock held by its sender's wallet, keyed by the lock transaction id. */
export interface HtlcLock {
  readonly amount: bigint;
  readonly recipientId: string;
  readonly secretHash: string;
  /** type 1: epoch timestamp in seconds, type 2: block height. */
  readonly expiration: { readonly type: HtlcExpirationType; readonly value: number };
  readonly timestamp: number;
  readonly vendorField?: string;
}

/** HTLC state as ARK 3.0 keeps it: the locks by id and their sum, which still counts for votes. */
export interface HtlcAttributes {
  readonly locks: Readonly<Record<string, HtlcLock>>;
  readonly lockedBalance: bigint;
}

export interface WalletAttributes {
  readonly delegate?: DelegateAttributes;
  /** Public key of the delegate this wallet votes for. */
  readonly vote?: string;
  readonly secondPublicKey?: string;
  readonly multiSignature?: MultiSignature;
  readonly htlc?: HtlcAttributes;
  /** IPFS hashes registered by the wallet, as ARK's `{ hashes: { [hash]: true } }`. */
  readonly ipfs?: { readonly hashes: Readonly<Record<string, true>> };
}

/**
 * A wallet as the spec describes it. Wallets handed out by the repository are read-only:
 * every change goes through the repository so that its indexes follow.
 */
export interface Wallet {
  readonly address: string;
  /** Absent until the wallet has signed something (or a lookup by public key made it known). */
  readonly publicKey?: string;
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly attributes: WalletAttributes;
}

/** True when the wallet is a delegate: it has delegate attributes and has not resigned. */
export function isActiveDelegate(wallet: Wallet): boolean {
  const delegate = wallet.attributes.delegate;
  return delegate !== undefined && delegate.resigned !== true;
}
