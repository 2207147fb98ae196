import type { ByteReader } from './byte-reader.js';
import { DeserializationError } from './deserialization-error.js';

export interface SignatureFields {
  signature?: string;
  secondSignature?: string;
  signatures?: string[];
}

const SCHNORR_BYTES = 64;
// The shortest and longest DER encodings of an ECDSA signature over secp256k1.
const MIN_DER_BYTES = 8;
const MAX_DER_BYTES = 72;
const PARTICIPANT_BYTES = 65;

/**
 * Reads what follows the asset of a v2 transaction exactly as ARK 3.0 splits it: 64-byte sender
 * and second signatures while the rest is not a whole number of 65-byte participant signatures
 * (or is a multiple of 64), then participant signatures with distinct indexes.
 */
export function readSchnorrSignatures(reader: ByteReader): SignatureFields {
  const fields: SignatureFields = {};
  if (canReadSingle(reader)) fields.signature = reader.hex(SCHNORR_BYTES, 'signature');
  if (canReadSingle(reader)) fields.secondSignature = reader.hex(SCHNORR_BYTES, 'secondSignature');
  if (reader.remaining === 0) return fields;
  if (reader.remaining % PARTICIPANT_BYTES !== 0) {
    throw new DeserializationError(
      reader.offset,
      'trailing-bytes',
      `signatures: ${reader.remaining} bytes left, not whole 65-byte participant signatures`,
    );
  }
  const count = reader.remaining / PARTICIPANT_BYTES;
  const seen = new Set<number>();
  fields.signatures = [];
  for (let index = 0; index < count; index++) {
    const offset = reader.offset;
    const participant = reader.peek() as number;
    if (seen.has(participant)) {
      throw new DeserializationError(
        offset,
        'malformed',
        `signatures[${index}]: participant ${participant} signed twice`,
      );
    }
    seen.add(participant);
    fields.signatures.push(reader.hex(PARTICIPANT_BYTES, `signatures[${index}]`));
  }
  return fields;
}

function canReadSingle(reader: ByteReader): boolean {
  const left = reader.remaining;
  return left > 0 && (left % SCHNORR_BYTES === 0 || left % PARTICIPANT_BYTES !== 0);
}

/** Reads the DER ECDSA signature and optional second signature of a v1 transaction. */
export function readEcdsaSignatures(reader: ByteReader): SignatureFields {
  const fields: SignatureFields = {};
  if (reader.remaining > 0) fields.signature = readDer(reader, 'signature');
  if (reader.remaining > 0 && reader.peek() !== 0xff) {
    fields.secondSignature = readDer(reader, 'secondSignature');
  }
  if (reader.remaining > 0) {
    throw new DeserializationError(
      reader.offset,
      'trailing-bytes',
      `${reader.remaining} bytes after the signatures (v1 multisignatures are not supported)`,
    );
  }
  return fields;
}

function readDer(reader: ByteReader, field: string): string {
  // A DER sequence: 0x30, content length, content; its length is content length + 2.
  const contentLength = reader.peek(1);
  if (contentLength === undefined) {
    throw new DeserializationError(reader.offset, 'truncated', `${field}: no DER length byte`);
  }
  const length = contentLength + 2;
  if (length > MAX_DER_BYTES || length < MIN_DER_BYTES) {
    throw new DeserializationError(
      reader.offset + 1,
      length > MAX_DER_BYTES ? 'oversized' : 'malformed',
      `${field}: DER signature of ${length} bytes, expected ${MIN_DER_BYTES}-${MAX_DER_BYTES}`,
    );
  }
  return reader.hex(length, field);
}
