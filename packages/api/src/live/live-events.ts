import type { BlockHeader, TransactionData } from '@lni/crypto';

/** The block a confirmed transaction is in. */
export type BlockReference = Pick<BlockHeader, 'id' | 'height' | 'timestamp'>;

/** A delegate registered or resigned by a transaction of an applied block. */
export interface DelegateChange {
  readonly username: string;
  readonly publicKey: string;
  readonly address: string;
  readonly transaction: string;
  readonly block: BlockReference;
}

/**
 * The events of the kernel's bus the live subscriptions are made from, with the shapes the
 * API reads. They are declared here, structurally, so that the API imports neither the state
 * plugin nor the plugin that reports missed slots (see @lni/state's README for the emitters).
 */
export interface LiveEventPayloads {
  'block.applied': { readonly block: BlockHeader & { transactions?: readonly TransactionData[] } };
  'block.reverted': { readonly block: BlockHeader };
  'transaction.applied': { readonly transaction: TransactionData; readonly block: BlockReference };
  'transaction.pool.added': { readonly transaction: TransactionData; readonly origin: string };
  'transaction.pool.removed': { readonly transaction: TransactionData; readonly reason: string };
  'wallets.changed': { readonly addresses: readonly string[]; readonly height: number };
  'round.applied': {
    readonly round: number;
    readonly height: number;
    readonly delegates: readonly string[];
    readonly votes: ReadonlyMap<string, bigint>;
  };
  'delegate.registered': DelegateChange;
  'delegate.resigned': DelegateChange;
  /** A delegate missed its slot; emitted by the missed-slot tracker. */
  'forger.missing': {
    readonly height: number;
    readonly round: number;
    readonly slot: number;
    /** Seconds since the network epoch: when the slot began. */
    readonly timestamp: number;
    /** The delegate's public key. */
    readonly delegate: string;
  };
}

export type LiveEventName = keyof LiveEventPayloads;

/** The kernel's EventBus as the live feed uses it. */
export interface LiveEventSource {
  on<K extends LiveEventName>(
    event: K,
    listener: (payload: LiveEventPayloads[K]) => void,
  ): () => void;
}
