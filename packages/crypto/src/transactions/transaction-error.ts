import { KernelError } from '@lni/errors';

/** Transaction data that cannot be serialized, signed or converted: the field and why. */
export class TransactionError extends KernelError {
  readonly field: string;

  constructor(field: string, reason: string, options?: { cause?: unknown }) {
    super('ERR_TRANSACTION_INVALID', `${field}: ${reason}`, options);
    this.field = field;
  }
}
