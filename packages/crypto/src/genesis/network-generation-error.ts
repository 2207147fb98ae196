import { KernelError } from '@lni/errors';

/** Options that cannot make a network: names each option and why. */
export class NetworkGenerationError extends KernelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_NETWORK_GENERATION', message, options);
  }
}
