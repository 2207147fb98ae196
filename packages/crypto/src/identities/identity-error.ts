import { KernelError } from '@lni/errors';

export type IdentityErrorCode =
  | 'ERR_INVALID_PRIVATE_KEY'
  | 'ERR_INVALID_PUBLIC_KEY'
  | 'ERR_INVALID_ADDRESS'
  | 'ERR_INVALID_WIF'
  | 'ERR_INVALID_MULTISIGNATURE';

/** A key, address, WIF or multisignature asset that cannot be used, with the reason. */
export class IdentityError extends KernelError {
  declare readonly code: IdentityErrorCode;

  constructor(code: IdentityErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
