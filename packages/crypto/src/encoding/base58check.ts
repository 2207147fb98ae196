import bs58 from 'bs58';
import { KernelError } from '@lni/errors';
import { hash256 } from '../hashing/hash.js';

/** Text that is not valid base58check: bad alphabet, too short, or a wrong checksum. */
export class EncodingError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_BASE58CHECK', message, options);
  }
}

// The checksum is the first 4 bytes of a double SHA-256, computed with node:crypto: the
// bs58check package hashes in pure JavaScript, which made every address derivation ~25 µs.
const CHECKSUM_LENGTH = 4;

/** Base58 of `payload` followed by the first 4 bytes of its double SHA-256. */
export function encodeBase58Check(payload: Uint8Array): string {
  const checksum = hash256(payload).subarray(0, CHECKSUM_LENGTH);
  return bs58.encode(Buffer.concat([payload, checksum]));
}

/** Decodes base58check text and checks its checksum; throws EncodingError naming the reason. */
export function decodeBase58Check(text: string): Buffer {
  if (typeof text !== 'string') {
    throw new EncodingError(`Base58check input must be a string, got ${typeof text}`);
  }
  let decoded: Buffer;
  try {
    decoded = Buffer.from(bs58.decode(text));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EncodingError(`Invalid base58check text "${abbreviate(text)}": ${reason}`, {
      cause: error,
    });
  }
  if (decoded.length < CHECKSUM_LENGTH) {
    throw new EncodingError(`Invalid base58check text "${abbreviate(text)}": too short`);
  }
  const payload = decoded.subarray(0, decoded.length - CHECKSUM_LENGTH);
  const checksum = decoded.subarray(decoded.length - CHECKSUM_LENGTH);
  if (!hash256(payload).subarray(0, CHECKSUM_LENGTH).equals(checksum)) {
    throw new EncodingError(`Invalid base58check text "${abbreviate(text)}": Invalid checksum`);
  }
  return Buffer.from(payload);
}

function abbreviate(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}
