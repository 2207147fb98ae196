import { KernelError } from '@lni/kernel';

/**
 * A block refused, and nothing changed. `rule` names what it broke: 'height', 'previousBlock',
 * 'slot', 'generator', a crypto verifyBlock rule ('signature', 'maxPayload', 'transactionSignature',
 * ...), a transaction rule ('nonce', 'balance', ...) or 'storage'. `misbehaviour` is set where
 * the rule is checked: true when only a forged or altered block breaks it (its sender is then
 * penalised), false when an honest race or fork can (the default).
 */
export class BlockRejectedError extends KernelError {
  readonly misbehaviour: boolean;

  constructor(
    readonly rule: string,
    message: string,
    readonly block: { readonly id: string; readonly height: number },
    readonly transaction?: { readonly index: number; readonly id?: string },
    options?: { readonly cause?: unknown; readonly misbehaviour?: boolean },
  ) {
    super(
      'ERR_BLOCK_REJECTED',
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.misbehaviour = options?.misbehaviour === true;
  }
}
