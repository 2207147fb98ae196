import { TransactionError } from './transaction-error.js';

/** The value of a field the serialization cannot do without. */
export function requiredField<T>(value: T | undefined | null, field: string): T {
  if (value === undefined || value === null) throw new TransactionError(field, 'is required');
  return value;
}
