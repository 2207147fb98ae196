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

/**
 * A header from a peer (the P2P protobuf fields) with a field missing or malformed. The message
 * names the header and the field (`blocks[3].payloadHash is not hex`); P2P refuses the message.
 */
export class MalformedHeaderError extends KernelError {
  constructor(message: string) {
    super('ERR_BLOCK_HEADER_MALFORMED', message);
  }
}
