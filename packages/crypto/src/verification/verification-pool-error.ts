import { KernelError } from '@lni/errors';

/** The pool cannot answer: it is closed, its worker file is missing, or a worker died. */
export class VerificationPoolError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_VERIFICATION_POOL', message, options);
  }
}
