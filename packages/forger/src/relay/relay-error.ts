import { KernelError } from '@lni/kernel';

/** A relay could not be reached, refused a request, or answered something unexpected. */
export class RelayError extends KernelError {
  constructor(
    readonly relay: string,
    message: string,
    readonly statusCode?: number,
    options?: { cause?: unknown; systemCode?: string },
  ) {
    super('ERR_FORGER_RELAY', message, options);
    this.systemCode = options?.systemCode;
  }

  /** The operating system's code of a failed connection (`ECONNREFUSED`), kept for the log. */
  readonly systemCode: string | undefined;
}
