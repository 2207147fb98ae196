import { sha256 } from '../hashing/hash.js';
import { serializeTransaction } from '../transactions/serializer.js';
import { transactionId } from '../transactions/transaction-hash.js';
import type { TransactionData } from '../transactions/transaction-data.js';
import type { TransactionFacts } from './block-rules.js';

/**
 * The facts the block rules need of a transaction, or the reason it cannot be serialized.
 * `serialized`: the wire bytes `data` was read from, used as its serialization rather than
 * computed again (a version-2 id is their hash; a version-1 id hashes the legacy bytes).
 */
export function transactionFacts(
  data: TransactionData,
  serialized?: Uint8Array,
): TransactionFacts | Error {
  try {
    const bytes = serialized ?? serializeTransaction(data);
    return {
      claimedId: data.id,
      id: serialized && data.version === 2 ? sha256(bytes).toString('hex') : transactionId(data),
      bytes,
      amount: data.amount,
      fee: data.fee,
      expiration: data.expiration,
    };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
