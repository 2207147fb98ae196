import { KernelError } from '@lni/kernel';

/** Base error of the P2P plugin: `code` for programs, a message naming peer and reason. */
export class P2PError extends KernelError {}

/** A peer we dialled refused us, or we refused it (wrong network, incompatible version). */
export class HandshakeError extends P2PError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_P2P_HANDSHAKE', message, options);
  }
}

/** A peer answered a message with an error or with a body that does not match its schema. */
export class PeerResponseError extends P2PError {
  constructor(
    readonly peer: string,
    message: string,
    readonly statusCode?: number,
    options?: { cause?: unknown },
  ) {
    super('ERR_P2P_RESPONSE', message, options);
  }
}

/** peers.json is missing a field or is not JSON; the message names the file and the field. */
export class SeedListError extends P2PError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_P2P_SEEDS', message, options);
  }
}

/** A peer's answer does not match the message's schema: the peer is penalised. */
export class MalformedAnswerError extends P2PError {
  constructor(
    readonly peer: string,
    message: string,
  ) {
    super('ERR_P2P_MALFORMED_ANSWER', message);
  }
}
