import { transactionTypeHandler } from './registry.js';
import { TransactionError } from './transaction-error.js';
import type { TransactionData } from './transaction-data.js';
import type { TransactionTypeHandler } from './type-handler.js';

/** The handler of the data's type and version, or a TransactionError naming what is unknown. */
export function handlerFor(data: TransactionData): TransactionTypeHandler {
  const handler = transactionTypeHandler(data.typeGroup, data.type);
  if (handler === undefined) {
    throw new TransactionError('type', `unknown type ${data.type} in typeGroup ${data.typeGroup}`);
  }
  if (!handler.versions.includes(data.version)) {
    throw new TransactionError('version', `${handler.feeKey} has no version ${data.version}`);
  }
  return handler;
}
