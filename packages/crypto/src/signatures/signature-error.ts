import { KernelError } from '@lni/errors';

/** Signing was asked with an input that cannot be signed (wrong hash size, invalid key). */
export class SignatureError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_SIGNATURE_INPUT', message, options);
  }
}
