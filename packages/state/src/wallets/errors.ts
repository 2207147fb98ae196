import { KernelError } from '@lni/kernel';

/** A wallet operation refused: unknown wallet, duplicate key, or a malformed value. */
export class WalletError extends KernelError {
  constructor(
    code: WalletErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export type WalletErrorCode =
  | 'ERR_WALLET_NOT_FOUND'
  | 'ERR_WALLET_EXISTS'
  | 'ERR_WALLET_DUPLICATE_PUBLIC_KEY'
  | 'ERR_WALLET_DUPLICATE_USERNAME'
  | 'ERR_WALLET_INVALID_VALUE'
  | 'ERR_WALLET_CHECKPOINT'
  | 'ERR_WALLET_INDEX_DEFERRED';

/** A wallet query that cannot be answered as asked; `field` names the offending field, if any. */
export class WalletQueryError extends KernelError {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super('ERR_WALLET_QUERY', message);
  }
}

/**
 * A wallet query that could not be answered in time (its budget ran out in the replica's queue,
 * the queue was full, or the replica restarted): the node is busy, not the query wrong.
 */
export class WalletQueryBusyError extends KernelError {
  constructor(message: string) {
    super('ERR_WALLET_QUERY_BUSY', message);
  }
}
