import { serializeTransaction } from '../transactions/serializer.js';
import { transactionId } from '../transactions/transaction-hash.js';
import type { TransactionData } from '../transactions/transaction-data.js';
import type { TransactionFacts } from './block-rules.js';

/** The facts the block rules need of a transaction, or the reason it cannot be serialized. */
export function transactionFacts(data: TransactionData): TransactionFacts | Error {
  try {
    return {
      claimedId: data.id,
      id: transactionId(data),
      bytes: serializeTransaction(data),
      amount: data.amount,
      fee: data.fee,
      expiration: data.expiration,
    };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
