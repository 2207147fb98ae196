import { KernelError } from '@lni/errors';

export type DeserializationReason =
  | 'truncated'
  | 'oversized'
  | 'unknown-type'
  | 'unsupported-version'
  | 'malformed'
  | 'trailing-bytes';

/** Bytes that are not a transaction: where (byte offset) and why. */
export class DeserializationError extends KernelError {
  readonly offset: number;
  readonly reason: DeserializationReason;

  constructor(
    offset: number,
    reason: DeserializationReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super('ERR_TRANSACTION_DESERIALIZATION', `offset ${offset}: ${reason}: ${detail}`, options);
    this.offset = offset;
    this.reason = reason;
  }
}
