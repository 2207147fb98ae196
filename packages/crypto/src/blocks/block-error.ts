import { KernelError } from '@lni/errors';

/** Bytes that are not a block: names the byte offset, the field being read and why. */
export class BlockDeserializationError extends KernelError {
  constructor(
    readonly offset: number,
    readonly field: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super('ERR_BLOCK_DESERIALIZE', `offset ${offset} (${field}): ${reason}`, options);
  }
}

/** A block value that cannot be serialized, signed or forged: names the field and why. */
export class InvalidBlockError extends KernelError {
  constructor(
    readonly field: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super('ERR_BLOCK_INVALID', `${field}: ${reason}`, options);
  }
}
