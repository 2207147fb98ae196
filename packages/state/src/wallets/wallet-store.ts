import type { Bound } from './field-index.js';
import type { WalletField } from './fields.js';
import type { Wallet } from './wallet.js';
import type { WalletChange } from './wallet-change.js';

/** A checkpoint of the wallet store; checkpoints nest and close in reverse order. */
export interface Checkpoint {
  readonly depth: number;
  readonly mark: number;
}

/** One field's sorted index, as the query engine and DPoS read it. */
export interface SortedFieldIndex {
  readonly field: WalletField;
  readonly size: number;
  rank(bound: Bound): number;
  count(from?: Bound, to?: Bound): number;
  scan(
    from: Bound | undefined,
    to: Bound | undefined,
    descending: boolean,
    skip?: number,
  ): Generator<Wallet>;
  countWhere(
    from: Bound | undefined,
    to: Bound | undefined,
    test: (wallet: Wallet) => boolean,
    atMost?: number,
  ): number;
}

/**
 * The wallet repository as other code and plugins use it. An interface (not the class) so that
 * the type stays the same whether it is seen through this package's sources or its build.
 */
export interface WalletStore {
  readonly size: number;
  readonly delegateCount: number;
  get(address: string): Wallet | undefined;
  getOrEmpty(address: string): Wallet;
  has(address: string): boolean;
  byPublicKey(publicKey: string): Wallet | undefined;
  byUsername(username: string): Wallet | undefined;
  find(id: string): Wallet | undefined;
  all(): Generator<Wallet>;
  index(field: WalletField | string): SortedFieldIndex;
  update(address: string, change: WalletChange | ((wallet: Wallet) => WalletChange)): Wallet;
  checkpoint(): Checkpoint;
  rollback(checkpoint: Checkpoint): void;
  release(checkpoint: Checkpoint): void;
  /** Whether a checkpoint is open: wallets may then hold changes not committed yet. */
  readonly inCheckpoint: boolean;
  /** Records which wallets change (committed changes), for a copy kept elsewhere. */
  trackChanges(): ChangeTracker;
}

/** Which wallets changed, for a copy kept elsewhere (see WalletRepository.trackChanges). */
export interface ChangeTracker {
  /** The addresses changed since the last take (or since tracking began), each once. */
  take(): string[];
  stop(): void;
}
