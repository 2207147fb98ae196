import { KernelError } from '@lni/kernel';
import { GRACEFUL_ERROR_STATUS } from './wire/routes.js';

/** Base error of the P2P plugin: `code` for programs, a message naming peer and reason. */
export class P2PError extends KernelError {}

/** A peer is not one of ours: another network, a version we do not accept, a chain we reject. */
export class HandshakeError extends P2PError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_P2P_HANDSHAKE', message, options);
  }
}

/**
 * How a request to a peer failed: `refused` (no connection), `timeout`, `disconnected` (the
 * socket closed, which is how ARK's servers answer most errors) or `status` (an error reply).
 */
export type PeerFailureKind = 'refused' | 'timeout' | 'disconnected' | 'status';

/** A request to a peer failed; see `kind`. Not the peer's fault as such: it is not penalised. */
export class PeerResponseError extends P2PError {
  readonly kind: PeerFailureKind;
  readonly statusCode: number | undefined;

  constructor(
    readonly peer: string,
    message: string,
    options: { kind: PeerFailureKind; statusCode?: number; cause?: unknown },
  ) {
    super('ERR_P2P_RESPONSE', message, { cause: options.cause });
    this.kind = options.kind;
    this.statusCode = options.statusCode;
  }
}

/** The peer answered 499: it is up but not ready yet (ARK, until its blockchain has booted). */
export function isNotReady(error: unknown): boolean {
  return error instanceof PeerResponseError && error.statusCode === GRACEFUL_ERROR_STATUS;
}

/** A peer answered with bytes that break the protocol or the message's schema: penalised. */
export class MalformedAnswerError extends P2PError {
  constructor(
    readonly peer: string,
    message: string,
  ) {
    super('ERR_P2P_MALFORMED_ANSWER', message);
  }
}

/** peers.json is missing a field or is not JSON; the message names the file and the field. */
export class SeedListError extends P2PError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_P2P_SEEDS', message, options);
  }
}
