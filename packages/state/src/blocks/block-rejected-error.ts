import { KernelError } from '@lni/kernel';

/**
 * A block refused, and nothing changed. `rule` names what it broke: 'height', 'previousBlock',
 * 'slot', 'generator', a crypto verifyBlock rule ('signature', 'maxPayload', 'transactionSignature',
 * ...), a transaction rule ('nonce', 'balance', ...) or 'storage'.
 */
export class BlockRejectedError extends KernelError {
  constructor(
    readonly rule: string,
    message: string,
    readonly block: { readonly id: string; readonly height: number },
    readonly transaction?: { readonly index: number; readonly id?: string },
    options?: { cause?: unknown },
  ) {
    super('ERR_BLOCK_REJECTED', message, options);
  }
}
