import { headerFromWire, MalformedHeaderError, type BlockHeader } from '@lni/crypto';
import { WireError } from './wire-error.js';

/**
 * A header a peer sent, checked field by field by @lni/crypto's one wire converter; a malformed
 * one is a WireError with the same message, so the connection closes and the sender is
 * penalised as for any other malformed message.
 */
export function headerFromPeer(
  fields: Readonly<Record<string, unknown>>,
  what: string,
): BlockHeader {
  try {
    return headerFromWire(fields, what);
  } catch (error) {
    if (error instanceof MalformedHeaderError) throw new WireError(error.message, { cause: error });
    throw error;
  }
}
