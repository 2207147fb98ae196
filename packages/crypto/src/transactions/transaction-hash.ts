import { sha256 } from '../hashing/hash.js';
import { legacyTransactionBytes } from './legacy-bytes.js';
import { serializeTransaction } from './serializer.js';
import type { SerializationOptions, TransactionData } from './transaction-data.js';

/** sha256 of the bytes a signature covers: AIP-11 bytes for v2, legacy bytes for v1. */
export function transactionHash(data: TransactionData, options: SerializationOptions = {}): Buffer {
  return sha256(
    data.version === 1
      ? legacyTransactionBytes(data, options)
      : serializeTransaction(data, options),
  );
}

/** The id: hex sha256 of the full serialization (v1: of the full legacy bytes). */
export function transactionId(data: TransactionData): string {
  return transactionHash(data).toString('hex');
}
