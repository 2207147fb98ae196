import bs58check from 'bs58check';
import { KernelError } from '@lni/kernel';

/** Text that is not valid base58check: bad alphabet, too short, or a wrong checksum. */
export class EncodingError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_BASE58CHECK', message, options);
  }
}

/** Base58 of `payload` followed by the first 4 bytes of its double SHA-256. */
export function encodeBase58Check(payload: Uint8Array): string {
  return bs58check.encode(payload);
}

/** Decodes base58check text and checks its checksum; throws EncodingError naming the reason. */
export function decodeBase58Check(text: string): Buffer {
  if (typeof text !== 'string') {
    throw new EncodingError(`Base58check input must be a string, got ${typeof text}`);
  }
  let decoded: Uint8Array;
  try {
    decoded = bs58check.decode(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EncodingError(`Invalid base58check text "${abbreviate(text)}": ${reason}`, {
      cause: error,
    });
  }
  return Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength);
}

function abbreviate(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}
