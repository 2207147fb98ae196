import { KernelError } from '@lni/kernel';

/** A relay could not be reached, refused a request, or answered something unexpected. */
export class RelayError extends KernelError {
  constructor(
    readonly relay: string,
    message: string,
    readonly statusCode?: number,
    options?: { cause?: unknown },
  ) {
    super('ERR_FORGER_RELAY', message, options);
  }
}
