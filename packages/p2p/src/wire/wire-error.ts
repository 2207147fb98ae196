/**
 * Bytes from a peer that are not a well-formed frame or message: the connection that sent them
 * is closed and its sender penalised. The message says what is wrong, for the log.
 */
export class WireError extends Error {
  override readonly name = 'WireError';
}
